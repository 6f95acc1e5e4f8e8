import type { CompactionEntry, Entry } from '@tiller/core';
import { entryMessage } from '@tiller/core';
import { expect } from 'vitest';

/**
 * Checks the rule of `compactedEntryIds` over a whole path: each compaction lists only the entries
 * that left the context with it, so the lists of successive compactions are disjoint and, read in
 * order, are exactly the entries that have left the context by the end of the path (the context
 * entries before the latest compaction's first kept entry), oldest first. Returns the lists.
 */
export function expectEachCompactionListsWhatLeftWithIt(path: readonly Entry[]): string[][] {
  const compactions = path.filter((entry): entry is CompactionEntry => entry.kind === 'compaction');
  const lists = compactions.map((entry) => entry.compactedEntryIds ?? []);
  const listed = lists.flat();
  expect(new Set(listed).size, 'an entry is listed by two compactions').toBe(listed.length);

  const latest = compactions.at(-1);
  const keptFrom = latest ? path.findIndex((entry) => entry.id === latest.firstKeptEntryId) : 0;
  expect(keptFrom, 'the latest compaction keeps an entry of the path').toBeGreaterThanOrEqual(0);
  const left = path.slice(0, keptFrom).filter((entry) => entry.kind !== 'compaction' && entryMessage(entry) !== undefined);
  expect(listed).toEqual(left.map((entry) => entry.id));
  return lists;
}
