import type { CompactionEntry, Entry } from '@tiller/core';

/** Index of the latest compaction entry on the path, or -1. Scans from the end. */
export function lastCompactionIndex(path: readonly Entry[], end = path.length): number {
  for (let i = end - 1; i >= 0; i--) if (path[i]!.kind === 'compaction') return i;
  return -1;
}

/**
 * Where the context of a path starts: the first entry a compaction at `compactionIndex` kept, or the
 * entry right after it when its `firstKeptEntryId` is not on the path (then nothing before it is
 * kept, as `buildContext` does). Searches backwards: kept entries sit just before the compaction.
 */
export function keptStartIndex(path: readonly Entry[], compactionIndex: number): number {
  if (compactionIndex < 0) return 0;
  const { firstKeptEntryId } = path[compactionIndex] as CompactionEntry;
  for (let i = compactionIndex - 1; i >= 0; i--) if (path[i]!.id === firstKeptEntryId) return i;
  return compactionIndex + 1;
}
