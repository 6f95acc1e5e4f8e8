import { ApprovalDecision, type RequestApprovalEffect } from '@tiller/core';
import { z } from 'zod';
import { ApprovalError } from '../errors/approval-error.js';

/** The batch a turn parked for decisions, as the core's snapshot names it. */
export interface AskedBatch {
  id: string;
  toolCallIds: readonly string[];
}

/**
 * Decisions for the one parked batch: gathered from `approve` until every asked call has one,
 * or denied by a timer when nobody decides in time. Then they go to the core, once.
 */
export interface Approvals {
  /** Parks the batch of `request`; `send` gets the decisions once they are complete. */
  park(request: RequestApprovalEffect, send: (decisions: ApprovalDecision[]) => void): void;
  /** Checks and records decisions for `asked`; throws `ApprovalError` saying what was wrong. */
  decide(asked: AskedBatch | null, decisions: readonly unknown[]): void;
  /** The asked calls of `asked` that have no decision yet. */
  undecided(asked: AskedBatch): string[];
  /**
   * The batch was parked at `atMs` by a run before this one (a resumed turn): its timeout counts
   * from then, so a restart does not give it a fresh one.
   */
  parkedSince(batchId: string, atMs: number): void;
  /** The turn ended or was aborted: no timer is left and nothing more is sent. */
  drop(): void;
}

interface Parked {
  batchId: string;
  decided: Map<string, ApprovalDecision>;
  timer: NodeJS.Timeout | undefined;
  send: ((decisions: ApprovalDecision[]) => void) | undefined;
  sent: boolean;
  /** When the batch was first parked: its timeout counts from then. */
  parkedAtMs: number | undefined;
}

export function createApprovals(timeoutMs: number): Approvals {
  return new ParkedApprovals(timeoutMs);
}

/** A class, so an agent that never parks a batch carries one small object, its methods on the prototype. */
class ParkedApprovals implements Approvals {
  readonly #timeoutMs: number;
  #parked: Parked | null = null;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  park(request: RequestApprovalEffect, send: (decisions: ApprovalDecision[]) => void): void {
    const parkedBatch = this.#batch(request.id);
    if (parkedBatch.sent) return;
    parkedBatch.send = send;
    const asked = request.calls.map((c) => c.id);
    // A listener may have decided while the request was being announced.
    sendIfComplete(parkedBatch, asked);
    if (parkedBatch.sent) return;
    clearTimeout(parkedBatch.timer);
    const timeoutMs = this.#timeoutMs;
    parkedBatch.parkedAtMs ??= Date.now();
    const leftMs = Math.max(0, parkedBatch.parkedAtMs + timeoutMs - Date.now());
    parkedBatch.timer = setTimeout(() => {
      const rationale = `No decision was made within ${timeoutMs} ms.`;
      for (const id of asked) if (!parkedBatch.decided.has(id)) parkedBatch.decided.set(id, { toolCallId: id, decision: 'deny', rationale });
      sendIfComplete(parkedBatch, asked);
    }, leftMs);
  }

  decide(asked: AskedBatch | null, decisions: readonly unknown[]): void {
    const checked = decisions.map((decision, i) => {
      const parsed = ApprovalDecision.safeParse(decision);
      if (!parsed.success) throw new ApprovalError(`agent.approve: decision ${i} is not a valid decision:\n${z.prettifyError(parsed.error)}`);
      return parsed.data;
    });
    if (!asked) throw new ApprovalError('agent.approve: no tool call is waiting for approval');
    const waiting = new Set(asked.toolCallIds);
    for (const decision of checked) {
      if (!waiting.has(decision.toolCallId)) {
        throw new ApprovalError(`agent.approve: tool call "${decision.toolCallId}" is not waiting for approval (waiting: ${[...waiting].join(', ')})`);
      }
    }
    const parkedBatch = this.#batch(asked.id);
    if (parkedBatch.sent) throw new ApprovalError(`agent.approve: the decisions for batch "${asked.id}" were already given`);
    // A decision is final: two approvers, or a button pressed twice, must not flip a call
    // another already decided while the rest of the batch waits. The same decision again changes
    // nothing, so it is taken (a retried request, a listener and a button that both allow).
    checked.forEach((decision, i) => {
      const earlier = parkedBatch.decided.get(decision.toolCallId);
      if (earlier && !sameDecision(earlier, decision)) {
        throw new ApprovalError(`agent.approve: tool call "${decision.toolCallId}" is already decided (${earlier.decision}); a decision cannot be changed`);
      }
      const twin = checked.findIndex((other) => other.toolCallId === decision.toolCallId);
      if (twin !== i && !sameDecision(checked[twin]!, decision)) {
        throw new ApprovalError(`agent.approve: tool call "${decision.toolCallId}" is decided twice in one call, differently (decisions ${twin} and ${i})`);
      }
    });
    for (const decision of checked) if (!parkedBatch.decided.has(decision.toolCallId)) parkedBatch.decided.set(decision.toolCallId, decision);
    sendIfComplete(parkedBatch, asked.toolCallIds);
  }

  undecided(asked: AskedBatch): string[] {
    const decided = this.#parked?.batchId === asked.id ? this.#parked.decided : undefined;
    return asked.toolCallIds.filter((id) => !decided?.has(id));
  }

  parkedSince(batchId: string, atMs: number): void {
    if (Number.isFinite(atMs)) this.#batch(batchId).parkedAtMs = atMs;
  }

  drop(): void {
    if (this.#parked) clearTimeout(this.#parked.timer);
    this.#parked = null;
  }

  /** The parked batch `batchId`, made fresh when another batch (or none) was parked. */
  #batch(batchId: string): Parked {
    if (this.#parked?.batchId !== batchId) {
      if (this.#parked) clearTimeout(this.#parked.timer);
      this.#parked = { batchId, decided: new Map(), timer: undefined, send: undefined, sent: false, parkedAtMs: undefined };
    }
    return this.#parked;
  }
}

function sendIfComplete(batch: Parked, asked: readonly string[]): void {
  if (batch.sent || !batch.send || !asked.every((id) => batch.decided.has(id))) return;
  clearTimeout(batch.timer);
  batch.sent = true;
  batch.send([...batch.decided.values()]);
}

function sameDecision(a: ApprovalDecision, b: ApprovalDecision): boolean {
  return a.decision === b.decision && (a.decision === 'allow' || a.rationale === (b as typeof a).rationale);
}
