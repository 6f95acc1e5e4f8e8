import type { ApprovalDecision, RequestApprovalEffect } from '@tiller/core';
import { ApprovalError } from '../errors/approval-error.js';
import { admitDecisions, type DecisionRefusal } from './admit-decisions.js';

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

const NOTHING_DECIDED: ReadonlyMap<string, ApprovalDecision> = new Map();

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
    const { admitted, refused } = admitDecisions(asked && { waiting: asked.toolCallIds, decided: this.#decided(asked.id) }, decisions);
    const first = firstRefusal(refused);
    // Nothing parked always gives a refusal (`none_waiting`).
    if (!asked || (first && rank(first) < CHANGED_RANK)) throw refusalError(first!);
    const parkedBatch = this.#batch(asked.id);
    if (parkedBatch.sent) throw new ApprovalError(`agent.approve: the decisions for batch "${asked.id}" were already given`);
    if (first) throw refusalError(first);
    for (const decision of admitted) parkedBatch.decided.set(decision.toolCallId, decision);
    sendIfComplete(parkedBatch, asked.toolCallIds);
  }

  undecided(asked: AskedBatch): string[] {
    const decided = this.#decided(asked.id);
    return asked.toolCallIds.filter((id) => !decided.has(id));
  }

  parkedSince(batchId: string, atMs: number): void {
    if (Number.isFinite(atMs)) this.#batch(batchId).parkedAtMs = atMs;
  }

  drop(): void {
    if (this.#parked) clearTimeout(this.#parked.timer);
    this.#parked = null;
  }

  /** What batch `batchId` has decided, without parking it (a refused `approve` must leave the parked batch as it was). */
  #decided(batchId: string): ReadonlyMap<string, ApprovalDecision> {
    return this.#parked?.batchId === batchId ? this.#parked.decided : NOTHING_DECIDED;
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

/**
 * The refusal `approve` throws when a list has several, the rules taken in the order it has always
 * checked them: every entry a decision, then every call waiting, then (after a batch already sent)
 * no decision changed; within a rule, the first entry of the list.
 */
function firstRefusal(refused: readonly DecisionRefusal[]): DecisionRefusal | undefined {
  let first: DecisionRefusal | undefined;
  for (const refusal of refused) if (!first || rank(refusal) < rank(first)) first = refusal;
  return first;
}

const CHANGED_RANK = 2;

function rank(refusal: DecisionRefusal): number {
  switch (refusal.kind) {
    case 'invalid':
      return 0;
    case 'none_waiting':
    case 'not_waiting':
      return 1;
    case 'changed':
    case 'twice':
      return CHANGED_RANK;
    default: {
      const unknown: never = refusal;
      throw new TypeError(`unknown refusal ${JSON.stringify(unknown)}`);
    }
  }
}

const refusalError = (refusal: DecisionRefusal) => new ApprovalError(`agent.approve: ${refusal.message}`);
