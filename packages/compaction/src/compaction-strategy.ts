import type { CompactionEntry, Entry, FileLists, Usage } from '@tiller/core';
import type { CompactionContext } from './compactor.js';
import { keptStartIndex, lastCompactionIndex } from './path-scan.js';
import type { WindowManagerConfig } from './window-manager-options.js';

/** What a strategy decided: the new compaction entry's fields and what left the context. */
export interface Plan {
  summary: string;
  firstKeptIndex: number;
  stripThinking: boolean;
  dropped: Entry[];
  cleared: CompactionEntry['cleared'];
  details: FileLists | undefined;
  usage?: Usage | undefined;
  summarizerModel?: string | undefined;
  warnings?: string[] | undefined;
}

/** A way to compact `path`: the plan, or null when nothing would leave the context. */
export type Strategy = (path: readonly Entry[], ctx: CompactionContext, config: WindowManagerConfig) => Promise<Plan | null>;

/** The latest compaction on the path (if any) and where the context it left starts. */
export function currentContext(path: readonly Entry[]) {
  const previousIndex = lastCompactionIndex(path);
  const previous = previousIndex >= 0 ? (path[previousIndex] as CompactionEntry) : undefined;
  return { previous, previousIndex, start: keptStartIndex(path, previousIndex) };
}
