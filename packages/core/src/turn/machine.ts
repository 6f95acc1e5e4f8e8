import { enqueueActions, setup } from 'xstate';
import type { Message } from '../schema/message.js';
import { AppendOnlyList } from '../log/append-only-list.js';
import { buildContext } from '../context/build-context.js';
import type { ResolvedTurnConfig } from './config.js';
import type { TurnContext } from './context.js';
import type {
  CallLlmEffect,
  EmitEffect,
  MaybeCompactEffect,
  PersistEffect,
  RequestApprovalEffect,
  RunToolsEffect,
} from './effects.js';
import type { MachineEvent } from './events.js';
import { answersPending, resultProblem, routeFailure, routeReply, isResultEvent, type FailureRoute, type ReplyRoute } from './classify.js';
import { reducers, type Reducer, type ReducerName } from './reducers.js';
import { applyUpdate } from './update/apply-update.js';
import { blockingEffect } from './blocking-effect.js';

type Params<E extends { type: string }> = Omit<E, 'type'>;

/** Effects are actions that do nothing here: the shell reads them from `step` and carries them out. */
const effect = <P>() => (_args: unknown, _params: P) => {};

/**
 * Runs a reducer as one assign, then announces what it did: a `persist` of the entries it
 * appended, then its progress events. A state's blocking effect (its entry action) follows.
 */
function reduce(name: ReducerName) {
  return enqueueActions<TurnContext, MachineEvent, undefined, MachineEvent, never, never, never, never, never>(({ context, event, enqueue }) => {
    const reducer = reducers[name] as Reducer;
    const { context: next, announcements } = applyUpdate(context, (work, emit) => reducer(work, event, emit, context));
    enqueue.assign(() => next);
    for (const announcement of announcements) enqueue(announcement as never);
  });
}

export const turnSetup = setup({
  types: {
    context: {} as TurnContext,
    events: {} as MachineEvent,
    input: {} as ResolvedTurnConfig,
  },
  actions: {
    maybe_compact: effect<Params<MaybeCompactEffect>>(),
    call_llm: effect<Params<CallLlmEffect>>(),
    run_tools: effect<Params<RunToolsEffect>>(),
    request_approval: effect<Params<RequestApprovalEffect>>(),
    persist: effect<Params<PersistEffect>>(),
    emit: effect<Params<EmitEffect>>(),
    startTurn: reduce('startTurn'),
    queueMessage: reduce('queueMessage'),
    applyCompaction: reduce('applyCompaction'),
    startToolRound: reduce('startToolRound'),
    continueAfterReply: reduce('continueAfterReply'),
    finishWithReply: reduce('finishWithReply'),
    retryAfterOverflow: reduce('retryAfterOverflow'),
    finishWithFailure: reduce('finishWithFailure'),
    recordResults: reduce('recordResults'),
    requestApproval: reduce('requestApproval'),
    applyDecisions: reduce('applyDecisions'),
    failOnProblem: reduce('failOnProblem'),
    abortTurn: reduce('abortTurn'),
    failUnfit: reduce('failUnfit'),
    noteStale: reduce('noteStale'),
    noteIdle: reduce('noteIdle'),
  },
  guards: {
    /** The result answers the pending effect but cannot be applied (it would corrupt the transcript). */
    resultHasProblem: ({ context, event }) =>
      isResultEvent(event) && answersPending(context, event) && resultProblem(context, event) !== null,
    answersPending: ({ context, event }) => answersPending(context, event),
    replyRoute: ({ context, event }, params: { routes: readonly ReplyRoute[] }) =>
      event.type === 'llm.done' && answersPending(context, event) && params.routes.includes(routeReply(context, event)),
    failureRoute: ({ context, event }, params: { route: FailureRoute }) =>
      event.type === 'llm.failed' && answersPending(context, event) && routeFailure(context, event) === params.route,
  },
});

const stale = { actions: 'noteStale' } as const;

/**
 * The turn: `idle -> steering -> calling -> tools -> steering -> … -> idle`. It never invokes,
 * never waits on a timer and never performs an effect: it only assigns context and lists the
 * effects (named actions with params) that `step` hands to the shell.
 */
export const turnMachine = turnSetup.createMachine({
  id: 'turn',
  // XState builds an initial snapshot inside every pure `transition()` call, with no input;
  // so this must be cheap and must not throw without one (a throw costs a stack trace per step).
  context: ({ input }) => {
    const config = input ?? { maxIterations: 0, entries: [] };
    const entries = AppendOnlyList.from(config.entries);
    return {
      maxIterations: config.maxIterations,
      entries,
      persisted: entries.length,
      view: AppendOnlyList.adopt<Message>(buildContext(config.entries)),
      queue: [],
      turn: null,
      lastOutcome: null,
      ignored: { count: 0, recent: [] },
    };
  },
  initial: 'idle',
  on: {
    steer: { actions: 'queueMessage' },
    follow_up: { actions: 'queueMessage' },
    abort: { target: '.idle', actions: 'abortTurn' },
    'turn.start': { target: '.idle', actions: 'failUnfit' },
    'event.invalid': { target: '.idle', actions: 'failUnfit' },
    'llm.done': stale,
    'llm.failed': stale,
    'tools.done': stale,
    'approval.needed': stale,
    'approval.decided': stale,
    'compaction.done': stale,
  },
  states: {
    idle: {
      on: {
        'turn.start': { target: 'steering', actions: 'startTurn' },
        // A steer or follow-up joins a running turn only; while idle it is dropped with a note.
        steer: { actions: 'noteIdle' },
        follow_up: { actions: 'noteIdle' },
        abort: { actions: 'noteIdle' },
        'event.invalid': { actions: 'noteIdle' },
      },
    },
    steering: {
      entry: { type: 'maybe_compact', params: ({ context }) => blockingEffect(context, 'maybe_compact') },
      on: {
        'compaction.done': [
          { guard: 'resultHasProblem', target: 'idle', actions: 'failOnProblem' },
          { guard: 'answersPending', target: 'calling', actions: 'applyCompaction' },
        ],
      },
    },
    calling: {
      entry: { type: 'call_llm', params: ({ context }) => blockingEffect(context, 'call_llm') },
      on: {
        'llm.done': [
          { guard: { type: 'replyRoute', params: { routes: ['tool_round'] } }, target: 'tools', actions: 'startToolRound' },
          { guard: { type: 'replyRoute', params: { routes: ['steer', 'follow_up'] } }, target: 'steering', actions: 'continueAfterReply' },
          {
            guard: { type: 'replyRoute', params: { routes: ['completed', 'final', 'model_error', 'model_aborted'] } },
            target: 'idle',
            actions: 'finishWithReply',
          },
        ],
        'llm.failed': [
          { guard: { type: 'failureRoute', params: { route: 'compact_and_retry' } }, target: 'steering', actions: 'retryAfterOverflow' },
          { guard: 'answersPending', target: 'idle', actions: 'finishWithFailure' },
        ],
      },
    },
    tools: {
      initial: 'running',
      states: {
        running: {
          entry: { type: 'run_tools', params: ({ context }) => blockingEffect(context, 'run_tools') },
          on: {
            'tools.done': [
              { guard: 'resultHasProblem', target: '#turn.idle', actions: 'failOnProblem' },
              { guard: 'answersPending', target: '#turn.steering', actions: 'recordResults' },
            ],
            'approval.needed': [
              { guard: 'resultHasProblem', target: '#turn.idle', actions: 'failOnProblem' },
              { guard: 'answersPending', target: 'awaitingApproval', actions: 'requestApproval' },
            ],
          },
        },
        awaitingApproval: {
          entry: { type: 'request_approval', params: ({ context }) => blockingEffect(context, 'request_approval') },
          on: {
            'approval.decided': [
              { guard: 'resultHasProblem', target: '#turn.idle', actions: 'failOnProblem' },
              { guard: 'answersPending', target: 'running', actions: 'applyDecisions' },
            ],
          },
        },
      },
    },
  },
});

export type TurnMachine = typeof turnMachine;
