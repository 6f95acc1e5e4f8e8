import type * as restate from '@restatedev/restate-sdk';
import { describeThrown } from '@tiller/shell';
import type { DurableEvent } from './durable-options.js';
import { warnInWorkerLog } from './worker-warning.js';

/**
 * Hands an event to the host's subscriber. A subscriber that throws, or whose promise rejects (a
 * webhook that is down), fails nowhere but in the worker's log: a throw in the handler would make
 * Restate retry the turn, and a rejection nobody handles would end the worker's process. The
 * warning goes through `ctx.console`, which stays quiet while a turn replays, so a throw on an
 * event the turn delivered before is not reported again for each replay of it (a rejection that
 * settles after the replay caught up is: the subscriber did fail again).
 */
export function deliverEvent(ctx: restate.Context, onEvent: ((event: DurableEvent) => unknown) | undefined, event: DurableEvent): void {
  if (!onEvent) return;
  const report = (error: unknown) => warnInWorkerLog(ctx, `onEvent failed on ${event.event.type} (turn ${event.turnId}, seq ${event.seq}): ${describeThrown(error)}`);
  try {
    const returned: unknown = onEvent(event);
    if (typeof (returned as PromiseLike<unknown> | undefined)?.then === 'function') (returned as PromiseLike<unknown>).then(undefined, report);
  } catch (error) {
    report(error);
  }
}
