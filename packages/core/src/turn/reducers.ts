import type { Draft } from 'immer';
import type { TurnContext } from './context.js';
import type { ProgressEvent } from './effects.js';
import type { MachineEvent, TurnEventOf } from './events.js';
import { isResultEvent, resultProblem, routeFailure, routeReply } from './classify.js';
import { appendEntries } from './update/append-entries.js';
import { awaitCall, awaitCompaction, awaitTools } from './update/await-effect.js';
import { endTurn, type Ending } from './update/end-turn.js';
import { noteIgnored } from './update/note-ignored.js';
import { deliverQueued, queueMessage } from './update/queue-message.js';
import { recordReply } from './update/record-reply.js';
import { recordToolResults } from './update/record-tool-results.js';
import { startTurn } from './update/start-turn.js';
import type { ToolCallPart } from '../schema/message.js';

/**
 * A change to the turn's context for one event. It mutates an immer draft and reports progress
 * through `emit`; the machine turns both into an assign plus `persist` and `emit` effects.
 * Reads go to `base`, the context before the step: reading through a draft makes drafts (and
 * work for immer) of everything it touches.
 */
export type Reducer<E extends MachineEvent = MachineEvent> = (
  draft: Draft<TurnContext>,
  event: E,
  emit: (event: ProgressEvent) => void,
  base: TurnContext,
) => void;

function finish(draft: Draft<TurnContext>, ending: Ending, at: string, emit: (event: ProgressEvent) => void, openCalls: readonly ToolCallPart[]): void {
  const outcome = endTurn(draft, ending, at, openCalls);
  if (outcome) emit({ type: 'turn.ended', outcome });
}

/** The calls of the batch the turn had open before this step. */
const openCallsOf = (base: TurnContext): readonly ToolCallPart[] => base.turn?.batch?.calls ?? [];

/** The time an input happened; an invalid input borrows the time of the last entry. */
function atOf(base: TurnContext, event: MachineEvent): string {
  return event.type === 'event.invalid' ? (event.at ?? base.entries.last()?.at ?? '') : event.at;
}

export const reducers = {
  startTurn: ((draft, event, emit) => {
    startTurn(draft, event);
    emit({ type: 'turn.started', turnId: event.turnId, at: event.at });
    awaitCompaction(draft, 'turn_start');
  }) satisfies Reducer<TurnEventOf<'turn.start'>>,

  queueMessage: ((draft, event) => {
    queueMessage(draft, event.type === 'steer' ? 'steer' : 'follow_up', event.message, event.at);
  }) satisfies Reducer<TurnEventOf<'steer' | 'follow_up'>>,

  applyCompaction: ((draft, event, emit, base) => {
    const pending = base.turn?.pending;
    const boundary = pending?.effect === 'maybe_compact' ? pending.reason : 'turn_start';
    appendEntries(draft, event.appended);
    emit({ type: 'compaction.finished', compactionId: event.compactionId, meta: event.meta });
    const deliveries = deliverQueued(draft, base, event.at, boundary);
    if (deliveries.length > 0) emit({ type: 'messages.delivered', deliveries });
    awaitCall(draft);
  }) satisfies Reducer<TurnEventOf<'compaction.done'>>,

  startToolRound: ((draft, event, emit) => {
    const calls = recordReply(draft, event);
    const batchId = awaitTools(draft);
    emit({ type: 'tools.started', batchId, calls });
  }) satisfies Reducer<TurnEventOf<'llm.done'>>,

  continueAfterReply: ((draft, event, _emit, base) => {
    const route = routeReply(base, event);
    recordReply(draft, event);
    awaitCompaction(draft, route === 'steer' ? 'steer' : 'follow_up');
  }) satisfies Reducer<TurnEventOf<'llm.done'>>,

  finishWithReply: ((draft, event, emit, base) => {
    const route = routeReply(base, event);
    const calls = recordReply(draft, event);
    finish(draft, replyEnding(route, event), event.at, emit, calls);
  }) satisfies Reducer<TurnEventOf<'llm.done'>>,

  retryAfterOverflow: ((draft) => {
    draft.turn!.overflowRetries += 1;
    awaitCompaction(draft, 'overflow', true);
  }) satisfies Reducer<TurnEventOf<'llm.failed'>>,

  finishWithFailure: ((draft, event, emit, base) => {
    const route = routeFailure(base, event);
    const ending: Ending =
      route === 'aborted'
        ? { status: 'aborted', reason: event.error.message || 'the model call was aborted' }
        : { status: 'failed', reason: failureReason(event), error: event.error };
    finish(draft, ending, event.at, emit, openCallsOf(base));
  }) satisfies Reducer<TurnEventOf<'llm.failed'>>,

  recordResults: ((draft, event, emit, base) => {
    const results = recordToolResults(draft, event, base.turn!.batch!);
    emit({ type: 'tools.finished', batchId: event.batchId, results });
    awaitCompaction(draft, 'tool_batch');
  }) satisfies Reducer<TurnEventOf<'tools.done'>>,

  requestApproval: ((draft, event, emit, base) => {
    draft.turn!.pending = { effect: 'request_approval', id: event.batchId, toolCallIds: event.toolCallIds };
    const asked = new Set(event.toolCallIds);
    emit({ type: 'approval.requested', batchId: event.batchId, calls: openCallsOf(base).filter((c) => asked.has(c.id)) });
  }) satisfies Reducer<TurnEventOf<'approval.needed'>>,

  applyDecisions: ((draft, event, _emit, base) => {
    const turn = draft.turn!;
    const pending = base.turn?.pending;
    const asked = pending?.effect === 'request_approval' ? pending.toolCallIds : [];
    const decided = new Set(event.decisions.map((d) => d.toolCallId));
    turn.batch!.decisions.push(
      ...event.decisions,
      ...asked
        .filter((id) => !decided.has(id))
        .map((toolCallId) => ({ toolCallId, decision: 'deny' as const, rationale: 'No decision was given for this call.' })),
    );
    // The same batch runs again, now with every asked call decided.
    turn.pending = { effect: 'run_tools', id: event.batchId };
  }) satisfies Reducer<TurnEventOf<'approval.decided'>>,

  failOnProblem: ((draft, event, emit, base) => {
    const problem = isResultEvent(event) ? resultProblem(base, event) : null;
    finish(draft, { status: 'failed', reason: problem ?? `${event.type} could not be applied` }, atOf(base, event), emit, openCallsOf(base));
  }) satisfies Reducer,

  abortTurn: ((draft, event, emit, base) => {
    finish(draft, { status: 'aborted', reason: event.reason ?? 'aborted by the host' }, event.at, emit, openCallsOf(base));
  }) satisfies Reducer<TurnEventOf<'abort'>>,

  failUnfit: ((draft, event, emit, base) => {
    const reason =
      event.type === 'event.invalid'
        ? `invalid input${event.claimedType ? ` "${event.claimedType}"` : ''}: ${event.reason}`
        : `${event.type} does not fit while a turn is running`;
    finish(draft, { status: 'failed', reason }, atOf(base, event), emit, openCallsOf(base));
  }) satisfies Reducer,

  noteStale: ((draft, event, emit, base) => {
    const note = {
      eventType: event.type,
      reason: 'it answers no effect the turn is waiting on',
      at: atOf(base, event),
    };
    noteIgnored(draft, note);
    emit({ type: 'event.ignored', note });
  }) satisfies Reducer,

  noteIdle: ((draft, event, emit, base) => {
    const detail = event.type === 'event.invalid' ? `: ${event.reason}` : '';
    const note = { eventType: event.type === 'event.invalid' ? (event.claimedType ?? 'unknown') : event.type, reason: `no turn is running${detail}`, at: atOf(base, event) };
    noteIgnored(draft, note);
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

function failureReason(event: TurnEventOf<'llm.failed'>): string {
  return event.error.kind === 'overflow'
    ? `the context overflowed again after compaction: ${event.error.message}`
    : `the model call failed (${event.error.kind}): ${event.error.message}`;
}
