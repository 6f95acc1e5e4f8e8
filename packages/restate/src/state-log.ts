import type { Entry } from '@tiller/core';
import type { ObjectContext, ObjectSharedContext } from '@restatedev/restate-sdk';

/** Entries per state key: a persist rewrites at most one page besides the new ones, whatever the log's length. */
export const LOG_PAGE_SIZE = 64;
const SIZE_KEY = 'log.size';
const pageKey = (page: number) => `log.page.${page}`;

/** The session log as a turn sees it: the path it builds on, growing as it persists. */
export interface TurnLog {
  readonly entries: readonly Entry[];
  /** Appends the entries not yet in the log, in order; an entry already there (a replayed persist) is skipped. */
  append(entries: readonly Entry[]): void | Promise<void>;
}

export async function readLogEntries(ctx: ObjectContext | ObjectSharedContext): Promise<Entry[]> {
  const size = (await ctx.get<number>(SIZE_KEY)) ?? 0;
  const entries: Entry[] = [];
  for (let page = 0; page * LOG_PAGE_SIZE < size; page++) {
    const items = (await ctx.get<Entry[]>(pageKey(page))) ?? [];
    for (const entry of items) entries.push(entry);
  }
  if (entries.length !== size) throw new Error(`the session log is torn: its size says ${size} entries, its pages hold ${entries.length}`);
  return entries;
}

/**
 * The session log as the virtual object's own state, in pages, appended to idempotently by entry
 * id. Only the object's exclusive `turn` handler writes it, so nothing outside the agent moves its
 * leaf: it is one chain, and each turn continues from the last entry of the one before.
 */
export async function openStateLog(ctx: ObjectContext): Promise<TurnLog> {
  const entries = await readLogEntries(ctx);
  const ids = new Set(entries.map((e) => e.id));
  return {
    entries,
    append(batch) {
      const fresh = batch.filter((entry) => !ids.has(entry.id));
      if (fresh.length === 0) return;
      const firstPage = Math.floor(entries.length / LOG_PAGE_SIZE);
      for (const entry of fresh) {
        ids.add(entry.id);
        entries.push(entry);
      }
      const lastPage = Math.floor((entries.length - 1) / LOG_PAGE_SIZE);
      for (let page = firstPage; page <= lastPage; page++) {
        ctx.set(pageKey(page), entries.slice(page * LOG_PAGE_SIZE, (page + 1) * LOG_PAGE_SIZE));
      }
      ctx.set(SIZE_KEY, entries.length);
    },
  };
}
