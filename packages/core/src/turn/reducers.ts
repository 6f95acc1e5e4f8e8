import type { TurnContext } from './context.js';
import type { ProgressEvent } from './effects.js';
import type { MachineEvent, TurnEventOf } from './events.js';
import { isResultEvent, resultProblem, routeFailure, routeReply } from './classify.js';
import { appendEntries } from './update/append-entries.js';
import { awaitApproval, awaitCall, awaitCompaction, awaitTools } from './update/await-effect.js';
import { endTurn, type Ending } from './update/end-turn.js';
import { noteIgnored } from './update/note-ignored.js';
import { deliverQueued, queueMessage } from './update/queue-message.js';
import { keepPartialReply, recordReply } from './update/record-reply.js';
import { recordToolResults } from './update/record-tool-results.js';
import { startTurn } from './update/start-turn.js';
import type { ToolCallPart } from '../schema/message.js';
import type { WorkingContext } from './update/working-context.js';

/**
 * A change to the turn's context for one event. It updates the step's working copy and reports
 * progress through `emit`; the machine turns both into an assign plus `persist` and `emit`
 * effects. `base` is the context before the step, for what the update itself replaces (the open
 * batch before the reply that closes it, the effect the turn was waiting on).
 */
export type Reducer<E extends MachineEvent = MachineEvent> = (
  work: WorkingContext,
  event: E,
  emit: (event: ProgressEvent) => void,
  base: TurnContext,
) => void;

/**
 * Ends the turn and announces how it ended. Steers and follow-ups no boundary took are dropped
 * with a note each: they were meant for this turn, never for a later one.
 */
export function finish(work: WorkingContext, ending: Ending, at: string, emit: (event: ProgressEvent) => void, openCalls: readonly ToolCallPart[]): void {
  const outcome = endTurn(work, ending, at, openCalls);
  if (!outcome) return;
  const left = work.queue;
  work.queue = [];
  for (const queued of left) {
    const note = { eventType: queued.kind, reason: `the turn ended (${outcome.status}) before a boundary took it`, at, message: queued.message };
    noteIgnored(work, note);
    emit({ type: 'event.ignored', note });
  }
  emit({ type: 'turn.ended', outcome });
}

/** The calls of the batch the turn had open before this step. */
const openCallsOf = (base: TurnContext): readonly ToolCallPart[] => base.turn?.batch?.calls ?? [];

/** The time an input happened; an invalid input borrows the time of the last entry. */
function atOf(base: TurnContext, event: MachineEvent): string {
  return event.type === 'event.invalid' ? (event.at ?? base.entries.last()?.at ?? '') : event.at;
}

export const reducers = {
  startTurn: ((work, event, emit) => {
    startTurn(work, event);
    emit({ type: 'turn.started', turnId: event.turnId, at: event.at });
    awaitCompaction(work, 'turn_start');
  }) satisfies Reducer<TurnEventOf<'turn.start'>>,

  queueMessage: ((work, event) => {
    queueMessage(work, event.type === 'steer' ? 'steer' : 'follow_up', event.message, event.at);
  }) satisfies Reducer<TurnEventOf<'steer' | 'follow_up'>>,

  applyCompaction: ((work, event, emit, base) => {
    const pending = base.turn?.pending;
    const boundary = pending?.type === 'maybe_compact' ? pending.reason : 'turn_start';
    if (pending?.type === 'maybe_compact' && pending.force) {
      work.turn!.overflowCompaction = event.meta.compacted ? 'compacted' : 'nothing_compacted';
      work.turn!.overflowCompactionWhy = event.meta.compacted ? undefined : nothingCompactedWhy(event.meta);
    }
    appendEntries(work, event.appended);
    emit({ type: 'compaction.finished', compactionId: event.id, meta: event.meta });
    const deliveries = deliverQueued(work, event.at, boundary);
    if (deliveries.length > 0) emit({ type: 'messages.delivered', deliveries });
    awaitCall(work);
  }) satisfies Reducer<TurnEventOf<'compaction.done'>>,

  startToolRound: ((work, event, emit) => {
    const calls = recordReply(work, event, emit);
    const batchId = awaitTools(work);
    emit({ type: 'tools.started', batchId, calls });
  }) satisfies Reducer<TurnEventOf<'llm.done'>>,

  continueAfterReply: ((work, event, emit, base) => {
    const route = routeReply(base, event);
    recordReply(work, event, emit);
    awaitCompaction(work, route === 'steer' ? 'steer' : 'follow_up');
  }) satisfies Reducer<TurnEventOf<'llm.done'>>,

  finishWithReply: ((work, event, emit, base) => {
    const route = routeReply(base, event);
    const calls = recordReply(work, event, emit);
    finish(work, replyEnding(route, event), event.at, emit, calls);
  }) satisfies Reducer<TurnEventOf<'llm.done'>>,

  retryAfterOverflow: ((work) => {
    work.turn!.overflowRetries += 1;
    awaitCompaction(work, 'overflow', true);
  }) satisfies Reducer<TurnEventOf<'llm.failed'>>,

  finishWithFailure: ((work, event, emit, base) => {
    const route = routeFailure(base, event);
    const ending: Ending =
      route === 'aborted'
        ? { status: 'aborted', reason: event.error.message || 'the model call was aborted' }
        : { status: 'failed', reason: failureReason(event, base.turn?.overflowCompaction ?? null, base.turn?.overflowCompactionWhy), error: event.error };
    finish(work, ending, event.at, emit, openCallsOf(base));
  }) satisfies Reducer<TurnEventOf<'llm.failed'>>,

  recordResults: ((work, event, emit, base) => {
    const results = recordToolResults(work, event, base.turn!.batch!);
    emit({ type: 'tools.finished', batchId: event.id, results });
    awaitCompaction(work, 'tool_batch');
  }) satisfies Reducer<TurnEventOf<'tools.done'>>,

  requestApproval: ((work, event, emit, base) => {
    awaitApproval(work, event.toolCallIds);
    const asked = new Set(event.toolCallIds);
    emit({ type: 'approval.requested', batchId: event.id, calls: openCallsOf(base).filter((c) => asked.has(c.id)) });
  }) satisfies Reducer<TurnEventOf<'approval.needed'>>,

  applyDecisions: ((work, event, _emit, base) => {
    const turn = work.turn!;
    const batch = turn.batch!;
    const pending = base.turn?.pending;
    const asked = pending?.type === 'request_approval' ? pending.toolCallIds : [];
    const decided = new Set(event.decisions.map((d) => d.toolCallId));
    const undecided = asked
      .filter((id) => !decided.has(id))
      .map((toolCallId) => ({ toolCallId, decision: 'deny' as const, rationale: 'No decision was given for this call.' }));
    turn.batch = { ...batch, decisions: [...batch.decisions, ...event.decisions, ...undecided] };
    // The same batch runs again, now with every asked call decided.
    awaitTools(work);
  }) satisfies Reducer<TurnEventOf<'approval.decided'>>,

  failOnProblem: ((work, event, emit, base) => {
    const problem = isResultEvent(event) ? resultProblem(base, event) : null;
    finish(work, { status: 'failed', reason: problem ?? `${event.type} could not be applied` }, atOf(base, event), emit, openCallsOf(base));
  }) satisfies Reducer,

  abortTurn: ((work, event, emit, base) => {
    if (event.partial && base.turn?.pending?.type === 'call_llm') keepPartialReply(work, event.partial, event.at);
    finish(work, { status: 'aborted', reason: event.reason ?? 'aborted by the host' }, event.at, emit, openCallsOf(base));
  }) satisfies Reducer<TurnEventOf<'abort'>>,

  failUnfit: ((work, event, emit, base) => {
    const reason =
      event.type === 'event.invalid'
        ? `invalid input${event.claimedType ? ` "${event.claimedType}"` : ''}: ${event.reason}`
        : `${event.type} does not fit while a turn is running`;
    finish(work, { status: 'failed', reason }, atOf(base, event), emit, openCallsOf(base));
  }) satisfies Reducer,

  noteStale: ((work, event, emit, base) => {
    const note = {
      eventType: event.type,
      reason: 'it answers no effect the turn is waiting on',
      at: atOf(base, event),
    };
    noteIgnored(work, note);
    emit({ type: 'event.ignored', note });
  }) satisfies Reducer,

  noteIdle: ((work, event, emit, base) => {
    const detail = event.type === 'event.invalid' ? `: ${event.reason}` : '';
    const eventType = event.type === 'event.invalid' ? (event.claimedType ?? 'unknown') : event.type;
    const dropped = event.type === 'steer' || event.type === 'follow_up' ? { message: event.message } : {};
    const note = { eventType, reason: `no turn is running${detail}`, at: atOf(base, event), ...dropped };
    noteIgnored(work, note);
    emit({ type: 'event.ignored', note });
  }) satisfies Reducer,
};

export type ReducerName = keyof typeof reducers;

function replyEnding(route: ReturnType<typeof routeReply>, event: TurnEventOf<'llm.done'>): Ending {
  switch (route) {
    case 'final':
      return { status: 'max_iterations' };
    case 'model_error':
      return { status: 'failed', reason: event.message.errorMessage ?? 'the model reported an error', error: { kind: 'fatal', message: event.message.errorMessage ?? '' } };
    case 'model_aborted':
      return { status: 'aborted', reason: 'the model call was aborted' };
    case 'completed':
    case 'tool_round':
    case 'steer':
    case 'follow_up':
      return { status: 'completed', stopReason: event.stopReason };
    default: {
      const unknown: never = route;
      throw new TypeError(`unknown reply route ${String(unknown)}`);
    }
  }
}

/** What a compaction that removed nothing said of itself: its error, or why it skipped. */
function nothingCompactedWhy(meta: TurnEventOf<'compaction.done'>['meta']): string | undefined {
  if (meta.compacted) return undefined;
  if (meta.error) return `it failed: ${meta.error}`;
  // `skipped` is not in the schema (a loose key a compactor may add): used only when it is text.
  return typeof meta.skipped === 'string' && meta.skipped !== '' ? meta.skipped : undefined;
}

function failureReason(event: TurnEventOf<'llm.failed'>, overflowCompaction: 'compacted' | 'nothing_compacted' | null, why: string | undefined): string {
  if (event.error.kind !== 'overflow') return `the model call failed (${event.error.kind}): ${event.error.message}`;
  switch (overflowCompaction) {
    case 'compacted':
      return `the context overflowed again after compaction: ${event.error.message}`;
    case 'nothing_compacted':
      // The compactor's own word when it gave one: the usual hint would point away from a compactor that is there and failed.
      return `the context overflowed, and the compaction it forced removed nothing (${why ?? 'is a compactor configured?'}): ${event.error.message}`;
    case null:
      return `the context overflowed: ${event.error.message}`;
    default: {
      const unknown: never = overflowCompaction;
      throw new TypeError(`unknown overflow compaction ${String(unknown)}`);
    }
  }
}
