import * as restate from '@restatedev/restate-sdk';
import { type Entry, start, type ToolCallPart, type TurnOutcome, type UserMessage } from '@tiller/core';
import { deliverEvent } from './deliver-event.js';
import { driveTurn, dropMessages } from './drive-turn.js';
import type { ResolvedDurableOptions } from './durable-options.js';
import { inboxObject, type InboxObject } from './inbox-object.js';
import { restateEngine } from './restate-engine.js';
import { openHostLog } from './host-log.js';
import { sessionLogOf } from './session-log-of.js';
import { openStateLog, readLogEntries } from './state-log.js';

export interface TurnRequest {
  turnId: string;
  message: UserMessage;
}

export interface RunningTurn {
  turnId: string;
  invocationId: string;
}

export interface ParkedApproval {
  /** The id of the `request_approval` effect. */
  id: string;
  calls: ToolCallPart[];
}

/**
 * The virtual objects of a durable agent: one session object per session key, whose exclusive
 * `turn` handler runs one turn at a time (a prompt sent while a turn runs waits its turn), and
 * the session's inbox. Shared handlers read the session while a turn runs.
 */
export function durableObjects(options: ResolvedDurableOptions) {
  const inbox = inboxObject(`${options.name}Inbox`);
  const timeouts = { inactivityTimeout: options.inactivityTimeoutMs, abortTimeout: options.abortTimeoutMs };
  const session = restate.object({
    name: options.name,
    description: 'A Tiller session: its log, and its turns, one at a time.',
    options: timeouts,
    handlers: {
      turn: async (ctx: restate.ObjectContext, request: TurnRequest): Promise<TurnOutcome> => runTurn(ctx, request, options, inbox),
      entries: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext): Promise<Entry[]> =>
        options.sessionLog ? (await sessionLogOf(options.sessionLog, ctx.key)).path() : readLogEntries(ctx),
      ),
      running: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext) => (await ctx.get<RunningTurn>('running')) ?? null),
      pendingApprovals: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext) => (await ctx.get<ParkedApproval>('approval')) ?? null),
      lastOutcome: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext) => (await ctx.get<TurnOutcome>('lastOutcome')) ?? null),
    },
  });
  return { session, inbox };
}

async function runTurn(ctx: restate.ObjectContext, request: TurnRequest, options: ResolvedDurableOptions, inbox: InboxObject): Promise<TurnOutcome> {
  const invocationId = ctx.request().id;
  // Asked before the turn writes anything, so a log that fails ends the turn with nothing left behind.
  // A replay cannot end the turn (see sessionLogOf); the SDK's phase only chooses the error's words.
  const replay = !(ctx as unknown as restate.internal.ContextInternal).isProcessing();
  const hostLog = options.sessionLog ? await sessionLogOf(options.sessionLog, ctx.key, { replay }) : undefined;
  const mailbox = ctx.objectClient(inbox, ctx.key);
  ctx.set('running', { turnId: request.turnId, invocationId } satisfies RunningTurn);
  // A turn before this one whose invocation was killed (a replay that could not go on) left its
  // parked approval behind: it is no approval of this turn's.
  ctx.clear('approval');
  try {
    await mailbox.open({ invocationId });
  } catch (error) {
    if (!(error instanceof restate.CancelledError)) throw error;
    // Cancelled before it began: nothing was written; what was sent for it is dropped with notes.
    const outcome: TurnOutcome = { status: 'aborted', reason: (await mailbox.abortReason()) ?? 'the turn was cancelled', turnId: request.turnId, iterations: 0 };
    const left = await mailbox.close({ taken: 0 });
    dropMessages(start(), left).forEach((note, seq) => deliverEvent(ctx, options.onEvent, { sessionId: ctx.key, turnId: request.turnId, seq, event: { type: 'event.ignored', note } }));
    return finish(ctx, outcome);
  }
  const log = hostLog ? await openHostLog(ctx, hostLog) : await openStateLog(ctx);
  const engine = restateEngine({ ctx, options, log, inbox, turnId: request.turnId });
  const begun = start({ maxIterations: options.limits.maxIterations, entries: log.entries });
  const at = await ctx.date.toJSON();
  const { snapshot, outcome } = await driveTurn({ snapshot: begun, input: { type: 'turn.start', turnId: request.turnId, message: request.message, at }, engine });
  // Sent after the turn took its last messages: they reached no running turn.
  const left = await afterCancel(() => mailbox.close({ taken: engine.taken }));
  for (const note of dropMessages(snapshot, left)) engine.emit({ type: 'event.ignored', note });
  return finish(ctx, outcome);
}

function finish(ctx: restate.ObjectContext, outcome: TurnOutcome): TurnOutcome {
  ctx.clear('running');
  ctx.clear('approval');
  ctx.set('lastOutcome', outcome);
  return outcome;
}

/** A cancellation that comes after the turn ended on its own is answered by the first await after it: try once more. */
async function afterCancel<T>(work: () => PromiseLike<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof restate.CancelledError)) throw error;
    return work();
  }
}
