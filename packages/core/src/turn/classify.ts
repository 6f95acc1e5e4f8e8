import type { TurnContext } from './context.js';
import type { MachineEvent, ResultEvent, ResultEventType, TurnEventOf } from './events.js';
import { toolCallsOf } from './update/record-reply.js';
import { toolResultsProblem } from './update/record-tool-results.js';
import { appendedProblem } from './update/apply-compaction.js';

const RESULT_TYPES: ReadonlySet<string> = new Set<ResultEventType>([
  'llm.done',
  'llm.failed',
  'tools.done',
  'approval.needed',
  'approval.decided',
  'compaction.done',
]);

export function isResultEvent(event: MachineEvent): event is ResultEvent {
  return RESULT_TYPES.has(event.type);
}

/**
 * A result applies only to the effect the turn waits on, matched by its `id`. (Which kinds of
 * result a state takes is the machine's business: a reply arriving while tools run never reaches
 * a transition that would apply it.)
 */
export function answersPending(context: TurnContext, event: MachineEvent): boolean {
  return isResultEvent(event) && context.turn?.pending?.id === event.id;
}

/** Where a model reply takes the turn. */
export type ReplyRoute = 'tool_round' | 'final' | 'model_error' | 'model_aborted' | 'steer' | 'follow_up' | 'completed';

export function routeReply(context: TurnContext, event: TurnEventOf<'llm.done'>): ReplyRoute {
  const pending = context.turn?.pending;
  if (event.stopReason === 'error') return 'model_error';
  if (event.stopReason === 'aborted') return 'model_aborted';
  if (pending?.type === 'call_llm' && pending.final) return 'final';
  if (toolCallsOf(event.message).length > 0) return 'tool_round';
  if (context.queue.some((q) => q.kind === 'steer')) return 'steer';
  if (context.queue.some((q) => q.kind === 'follow_up')) return 'follow_up';
  return 'completed';
}

/** Where a failed model call takes the turn: one forced compaction and retry after an overflow. */
export type FailureRoute = 'compact_and_retry' | 'aborted' | 'failed';

export function routeFailure(context: TurnContext, event: TurnEventOf<'llm.failed'>): FailureRoute {
  switch (event.error.kind) {
    case 'overflow':
      return (context.turn?.overflowRetries ?? 0) < 1 ? 'compact_and_retry' : 'failed';
    case 'aborted':
      return 'aborted';
    case 'transient':
    case 'fatal':
      return 'failed';
    default: {
      const unknown: never = event.error.kind;
      throw new TypeError(`unknown failure kind ${String(unknown)}`);
    }
  }
}

/** What is wrong with a result that answers the pending effect, or null when it can be applied. */
export function resultProblem(context: TurnContext, event: ResultEvent): string | null {
  const turn = context.turn;
  switch (event.type) {
    case 'tools.done':
      return toolResultsProblem(turn?.batch ?? null, event.results);
    case 'approval.needed': {
      const callIds = new Set(turn?.batch?.calls.map((c) => c.id));
      const stranger = event.toolCallIds.find((id) => !callIds.has(id));
      return stranger === undefined ? null : `approval.needed names tool call "${stranger}", which is not in the batch`;
    }
    case 'approval.decided': {
      const pending = turn?.pending;
      const asked = new Set(pending?.type === 'request_approval' ? pending.toolCallIds : []);
      const stranger = event.decisions.find((d) => !asked.has(d.toolCallId));
      return stranger === undefined ? null : `approval.decided decides tool call "${stranger.toolCallId}", which was not asked about`;
    }
    case 'compaction.done':
      return appendedProblem(context, event.appended);
    case 'llm.done':
    case 'llm.failed':
      return null;
    default: {
      const unknown: never = event;
      throw new TypeError(`not a result event: ${JSON.stringify(unknown)}`);
    }
  }
}
