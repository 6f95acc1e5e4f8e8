import type * as restate from '@restatedev/restate-sdk';

/**
 * Writes a failure of the host's code that the turn goes on past (a subscriber that threw, an
 * abort listener of a tool, a model or a compactor that threw) to the worker's log as a warning.
 * It goes through `ctx.console`, which stays quiet while a turn replays, so a failure the turn
 * met before is not reported again for each replay of it.
 */
export function warnInWorkerLog(ctx: restate.Context, text: string): void {
  try {
    ctx.console.warn(text);
  } catch {
    // The turn may be over when a late failure comes: a report must not become a fault of its own.
  }
}
