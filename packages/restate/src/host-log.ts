import * as restate from '@restatedev/restate-sdk';
import type { Entry } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import type { TurnLog } from './state-log.js';

/**
 * The session log as a store the host keeps (a `SessionLog` over JSONL, SQLite, …), which things
 * besides the turn may change: a host's `branch`, `setLabel` or `setSessionName`, another agent's
 * turn. A turn stands on the log's leaf as it is when the turn starts, as the shell's agent does.
 * That leaf's id is journaled as the turn starts, so a replay stands on the same path whatever the
 * leaf is by then: entries never change, so the path to an entry is the same whenever it is read.
 * The log keeps its leaf's path, so a leaf nothing moved costs a copy of it, and a moved one a
 * walk. Each persist is a step that appends only the entries the log does not have yet:
 * idempotent by entry id.
 */
export async function openHostLog(ctx: restate.ObjectContext, log: SessionLog): Promise<TurnLog> {
  const leafId = await ctx.run('session log leaf', () => log.leafId);
  if (leafId !== null && !log.has(leafId)) {
    throw new Error(`the session log has no entry "${leafId}", the leaf this turn started on: does every worker reach the same store?`);
  }
  const entries = log.path(leafId);
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
