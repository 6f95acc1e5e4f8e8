import type { CompactionEntry, Entry } from '@tiller/core';

/**
 * Where an entry stands for the model at a leaf:
 * - `context`: the model sees it (a kept message, the latest compaction's summary);
 * - `compacted`: on the path, but a compaction took it out of the context (the log keeps it);
 * - `cleared`: a tool result still in the context with its content replaced by a placeholder;
 * - `hidden`: on the path but never sent (labels, names, other custom entries);
 * - `off-path`: on another branch.
 */
export type Visibility = 'context' | 'compacted' | 'cleared' | 'hidden' | 'off-path';

/** The visibility of every entry on `path` (root to leaf); entries not on it are `off-path`. */
export function contextVisibility(path: readonly Entry[]): Map<string, Visibility> {
  const out = new Map<string, Visibility>();
  let latest = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.kind === 'compaction') {
      latest = i;
      break;
    }
  }
  const compaction = latest >= 0 ? (path[latest] as CompactionEntry) : undefined;
  const keptFrom = compaction ? path.findIndex((e) => e.id === compaction.firstKeptEntryId) : 0;
  const cleared = new Set(compaction?.cleared?.entryIds ?? []);
  for (const [i, entry] of path.entries()) {
    if (entry.kind === 'custom') out.set(entry.id, 'hidden');
    else if (i === latest) out.set(entry.id, 'context');
    else if (entry.kind === 'compaction') out.set(entry.id, 'compacted');
    else if (compaction && i < latest && (keptFrom < 0 || i < keptFrom)) out.set(entry.id, 'compacted');
    else out.set(entry.id, cleared.has(entry.id) ? 'cleared' : 'context');
  }
  return out;
}
