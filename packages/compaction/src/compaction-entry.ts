import type { CompactionEntry, FileLists, Usage } from '@tiller/core';

/** What a compaction decided: the compaction entry's own fields (a `compact` result has them all). */
export interface CompactionEntryFields {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  tokensAfter: number;
  compactedEntryIds: readonly string[];
  cleared?: CompactionEntry['cleared'] | undefined;
  stripThinking?: boolean | undefined;
  details?: FileLists | undefined;
  /** What the summarizer calls cost. */
  usage?: Usage | undefined;
  summarizerModel?: string | undefined;
}

export interface CompactionEntryIds {
  id: string;
  parentId: string | null;
  /** ISO 8601 time of writing. */
  at: string;
  /** Recorded in provenance; default `summarize`. */
  strategy?: string | undefined;
  midRound?: boolean | undefined;
}

/** The compaction entry for what a compaction decided, ready to append after `parentId`. Every compaction entry is made here. */
export function compactionEntry(fields: CompactionEntryFields, ids: CompactionEntryIds): CompactionEntry {
  return {
    kind: 'compaction',
    id: ids.id,
    parentId: ids.parentId,
    at: ids.at,
    summary: fields.summary,
    firstKeptEntryId: fields.firstKeptEntryId,
    tokensBefore: fields.tokensBefore,
    tokensAfter: fields.tokensAfter,
    compactedEntryIds: [...fields.compactedEntryIds],
    ...(fields.cleared ? { cleared: fields.cleared } : {}),
    ...(fields.stripThinking ? { stripThinking: true } : {}),
    ...(fields.details ? { details: fields.details } : {}),
    provenance: {
      strategy: ids.strategy ?? 'summarize',
      ...(ids.midRound !== undefined ? { midRound: ids.midRound } : {}),
      ...(fields.summarizerModel ? { summarizerModel: fields.summarizerModel } : {}),
      ...(fields.usage ? { summarizerUsage: fields.usage } : {}),
    },
  };
}
