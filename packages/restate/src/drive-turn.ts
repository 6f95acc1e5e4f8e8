import {
  type ApprovalDecision,
  type BlockingEffect,
  type Entry,
  type IgnoredNote,
  isBlockingEffect,
  type ProgressEvent,
  type RequestApprovalEffect,
  step,
  type TurnEvent,
  type TurnOutcome,
  type TurnSnapshot,
} from '@tiller/core';
import { admitDecisions } from '@tiller/shell';
import { decisionList } from './approval-decisions.js';
import type { TurnMessage } from './turn-message.js';

/** What ended a wait on a parked approval: a message from outside, or the approval timeout. */
export type ApprovalWake = { kind: 'message'; message: TurnMessage } | { kind: 'timeout' };

/**
 * What a durable engine supplies to drive a turn. The driver decides what happens (it steps the
 * core and routes every effect); the engine decides how each piece of work is made durable and
 * how messages from outside reach the turn, in an order that replays the same.
 */
export interface TurnEngine {
  /** The work of a blocking effect; it settles with the input that answers it. */
  perform(effect: Exclude<BlockingEffect, RequestApprovalEffect>): Promise<TurnEvent>;
  /**
   * The messages that arrived since the last call, in order. Asked before a boundary's answer
   * and a model's answer are applied, so a steer sent during a model call or a tool batch joins
   * at the boundary after it, and a follow-up sent before the last reply keeps the turn going.
   */
  takeMessages(): Promise<readonly TurnMessage[]>;
  /** Waits for the next message or the approval timeout (counted from the first wait on this effect). */
  awaitApproval(effect: RequestApprovalEffect): Promise<ApprovalWake>;
  /** Told when the turn starts and stops waiting on approvals, so a host can see what waits. */
  approvalParked(effect: RequestApprovalEffect | null): void;
  /** Writes entries to the session log before the next blocking effect; idempotent by entry id. */
  persist(entries: readonly Entry[]): void | Promise<void>;
  emit(event: ProgressEvent): void;
  /** The time of an input the driver makes itself (an approval decided, an abort). */
  now(): string | Promise<string>;
  /**
   * Whether an error is the engine telling the turn to stop (a cancelled invocation). If so, the
   * engine has stopped its local work and says why; the turn then ends `aborted`.
   */
  cancellation(error: unknown): Promise<{ reason: string } | null>;
}

export interface DriveTurnOptions {
  snapshot: TurnSnapshot;
  /** The input that starts the turn (`turn.start`). */
  input: TurnEvent;
  engine: TurnEngine;
}

export interface DrivenTurn {
  snapshot: TurnSnapshot;
  outcome: TurnOutcome;
}

/**
 * Runs one turn over the pure core until it ends: every input is stepped and every effect carried
 * out in order (persist before the blocking effect). Messages from outside are stepped before the
 * answer they arrived ahead of (the core queues them for the next boundary); a parked approval
 * wakes on each message. An answer is applied only while the turn still waits on the effect it
 * answers. Nothing here is specific to Restate: any engine that can make the work durable serves.
 */
export async function driveTurn(options: DriveTurnOptions): Promise<DrivenTurn> {
  const { engine } = options;
  let snapshot = options.snapshot;
  let blocking: BlockingEffect | undefined;
  let outcome: TurnOutcome | undefined;

  const apply = async (input: TurnEvent) => {
    const result = step(snapshot, input);
    snapshot = result.snapshot;
    for (const effect of result.effects) {
      if (isBlockingEffect(effect)) {
        blocking = effect;
        continue;
      }
      switch (effect.type) {
        case 'persist': {
          const written = engine.persist(effect.entries);
          if (written) await written;
          break;
        }
        case 'emit':
          engine.emit(effect.event);
          if (effect.event.type === 'turn.ended') outcome = effect.event.outcome;
          break;
        default: {
          const unknown: never = effect;
          throw new TypeError(`unknown effect ${JSON.stringify(unknown)}`);
        }
      }
    }
  };

  const pendingId = () => snapshot.context.turn?.pending?.id;

  /** Steps what came for the turn. Only a parked batch takes decisions: one that came before it, or after it was decided, decides nothing. */
  const takeAll = async (approvalReason = NO_APPROVAL_WAITS) => {
    for (const message of await engine.takeMessages()) {
      const input = messageInput(message);
      if (input) await apply(input);
      else engine.emit({ type: 'event.ignored', note: { eventType: 'approval', reason: approvalReason, at: message.at } });
    }
  };

  /** Waits for decisions on every asked call, stepping other messages as they come; the timeout denies the rest. */
  const decide = async (effect: RequestApprovalEffect): Promise<TurnEvent | undefined> => {
    const approval = parkApproval(effect);
    engine.approvalParked(effect);
    try {
      while (pendingId() === effect.id) {
        const wake = await engine.awaitApproval(effect);
        if (wake.kind === 'timeout') return approval.decided(await engine.now(), true);
        const { message } = wake;
        if (message.kind === 'approval') {
          const { complete, refused } = approval.take(message.decisions);
          // The inbox refuses such decisions; one that got in anyway must not fail the turn on every replay.
          for (const reason of refused) engine.emit({ type: 'event.ignored', note: { eventType: 'approval', reason, at: message.at } });
          if (complete) return approval.decided(message.at, false);
          continue;
        }
        await apply(messageInput(message)!);
      }
      return undefined;
    } finally {
      engine.approvalParked(null);
    }
  };

  try {
    await apply(options.input);
    while (snapshot.context.turn && blocking && blocking.id === pendingId()) {
      const effect = blocking;
      const answer = effect.type === 'request_approval' ? await decide(effect) : await engine.perform(effect);
      if (answer && decidesOnMessages(answer)) await takeAll();
      if (answer && pendingId() === effect.id) await apply(answer);
    }
  } catch (error) {
    const cancelled = await engine.cancellation(error);
    if (!cancelled) throw error;
    // What came for the turn is its own: stepped before the abort, the core drops it with a note.
    await takeAll('the turn ended (aborted) before it took the decision');
    await apply({ type: 'abort', at: await engine.now(), reason: cancelled.reason });
  }
  if (!outcome) throw new Error('the turn stopped without an outcome: the core is waiting on no effect the driver can carry out');
  return { snapshot, outcome };
}

/**
 * Whether messages waiting now change what this answer does: a boundary's answer delivers them,
 * and a model's answer ends the turn unless a follow-up waits. After any other answer the next
 * boundary comes before anything reads them, so taking them there costs a round trip for nothing.
 */
function decidesOnMessages(answer: TurnEvent): boolean {
  switch (answer.type) {
    case 'compaction.done':
    case 'llm.done':
    case 'llm.failed':
      return true;
    default:
      return false;
  }
}

/** The core's input for a message for the model; approvals are the driver's own business. */
function messageInput(message: TurnMessage): TurnEvent | undefined {
  switch (message.kind) {
    case 'steer':
    case 'follow_up':
      return { type: message.kind, message: message.message, at: message.at };
    case 'approval':
      return undefined;
    default: {
      const unknown: never = message;
      throw new TypeError(`unknown turn message ${JSON.stringify(unknown)}`);
    }
  }
}

/** The shell's words for a decision with no batch parked, so the note says what `approve()` would throw. */
const NO_APPROVAL_WAITS = admitDecisions(null, []).refused[0]!.message;

/**
 * Decisions gathered for one parked batch, by the shell's rules (`admitDecisions`): `approve()`
 * throws what this can only note.
 */
function parkApproval(effect: RequestApprovalEffect) {
  const asked = effect.calls.map((c) => c.id);
  const decided = new Map<string, ApprovalDecision>();
  return {
    /**
     * Takes the decisions for asked calls; complete once every asked call has one. A decision it
     * cannot take is refused, each with the reason, and the rest of the list still counts.
     */
    take(decisions: unknown): { complete: boolean; refused: string[] } {
      const { admitted, refused } = admitDecisions({ waiting: asked, decided }, decisionList(decisions));
      for (const decision of admitted) decided.set(decision.toolCallId, decision);
      return { complete: decided.size === asked.length, refused: refused.map((r) => r.message) };
    },
    decided(at: string, timedOut: boolean): TurnEvent {
      const decisions: ApprovalDecision[] = effect.calls.map(
        (call) =>
          decided.get(call.id) ?? {
            toolCallId: call.id,
            decision: 'deny',
            rationale: timedOut ? 'no decision came before the approval timeout' : 'no decision was given',
          },
      );
      return { type: 'approval.decided', id: effect.id, at, decisions };
    },
  };
}

/**
 * What the core does with messages that reached no running turn (sent while none ran, or after
 * the turn took its last ones): a steer or follow-up belongs to the turn it was sent to, so each
 * is dropped with the core's `event.ignored` note, which carries the message for the host to send
 * again. An approval decides nothing once its turn is over. `snapshot` is one where no turn runs
 * (a turn's last snapshot, or `start()`); the notes come back in order.
 */
export function dropMessages(snapshot: TurnSnapshot, messages: readonly TurnMessage[]): IgnoredNote[] {
  const notes: IgnoredNote[] = [];
  for (const message of messages) {
    const input = messageInput(message);
    if (!input) {
      notes.push({ eventType: 'approval', reason: 'no turn is running', at: message.at });
      continue;
    }
    const result = step(snapshot, input);
    snapshot = result.snapshot;
    for (const effect of result.effects) {
      if (effect.type === 'emit' && effect.event.type === 'event.ignored') notes.push(effect.event.note);
      else throw new TypeError(`a ${message.kind} sent while no turn runs gave ${JSON.stringify(effect)}`);
    }
  }
  return notes;
}
