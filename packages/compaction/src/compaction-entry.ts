import type { CompactionEntry } from '@tiller/core';
import type { CompactionResult } from './compact.js';

export interface CompactionEntryIds {
  id: string;
  parentId: string | null;
  /** ISO 8601 time of writing. */
  at: string;
  /** Recorded in provenance; default `summarize`. */
  strategy?: string | undefined;
  midRound?: boolean | undefined;
}

/** The compaction entry for a `compact` result, ready to append after `parentId`. */
export function compactionEntry(result: CompactionResult, ids: CompactionEntryIds): CompactionEntry {
  return {
    kind: 'compaction',
    id: ids.id,
    parentId: ids.parentId,
    at: ids.at,
    summary: result.summary,
    firstKeptEntryId: result.firstKeptEntryId,
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    compactedEntryIds: result.compactedEntryIds,
    ...(result.cleared ? { cleared: result.cleared } : {}),
    ...(result.stripThinking ? { stripThinking: true } : {}),
    details: result.details,
    provenance: {
      strategy: ids.strategy ?? 'summarize',
      ...(ids.midRound !== undefined ? { midRound: ids.midRound } : {}),
      ...(result.summarizerModel ? { summarizerModel: result.summarizerModel } : {}),
      ...(result.usage ? { summarizerUsage: result.usage } : {}),
    },
  };
}
