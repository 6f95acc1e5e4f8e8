import * as restate from '@restatedev/restate-sdk';
import type { Entry } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import type { TurnLog } from './state-log.js';

/**
 * The session log as a store the host gives (a `SessionLog` over JSONL, SQLite, …). The path a
 * turn builds on is the log's path cut at a length journaled when the turn started, so a replay
 * builds on the same path even though the turn's own entries are in the log by then. Each persist
 * is a step that appends only the entries the log does not have yet: idempotent by entry id.
 */
export async function openHostLog(ctx: restate.ObjectContext, log: SessionLog): Promise<TurnLog> {
  const size = await ctx.run('session log size', () => log.path().length);
  const entries = log.path().slice(0, size);
  if (entries.length !== size) throw new Error(`the session log has ${entries.length} entries on its path, fewer than the ${size} this turn started on`);
  const ids = new Set(entries.map((e) => e.id));
  return {
    entries,
    async append(batch) {
      const fresh = batch.filter((entry) => !ids.has(entry.id));
      if (fresh.length === 0) return;
      for (const entry of fresh) {
        ids.add(entry.id);
        entries.push(entry);
      }
      const written = ctx.run(`persist ${fresh[0]!.id}`, async () => {
        const missing = fresh.filter((entry) => !log.has(entry.id));
        if (missing.length > 0) await log.append(missing);
      });
      try {
        await written;
      } catch (error) {
        // A cancellation heard here must not lose the entries: the step still completes.
        if (error instanceof restate.CancelledError) await written.catch(() => undefined);
        throw error;
      }
    },
  };
}
