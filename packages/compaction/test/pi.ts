import * as piIndex from '@mariozechner/pi-coding-agent';
import type { CompactionSettings } from '../src/index.js';

/**
 * pi 0.73.1, the reference the differential tests compare with. `prepareCompaction`,
 * `estimateContextTokens` and `computeFileLists` are not exported from pi's index, so they are
 * loaded from the package's own files (its `exports` map hides them from a bare import).
 */
export type PiEntry = piIndex.SessionEntry;
export type PiMessage = piIndex.SessionContext['messages'][number];

export interface PiPreparation {
  firstKeptEntryId: string;
  messagesToSummarize: PiMessage[];
  turnPrefixMessages: PiMessage[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: unknown;
}

interface PiCompactionInternals {
  prepareCompaction(path: PiEntry[], settings: CompactionSettings): PiPreparation | undefined;
  estimateContextTokens(messages: PiMessage[]): { tokens: number; usageTokens: number; trailingTokens: number; lastUsageIndex: number | null };
}
interface PiUtils {
  computeFileLists(fileOps: unknown): { readFiles: string[]; modifiedFiles: string[] };
}

const dist = new URL('../node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/', import.meta.url);
const internals = (await import(new URL('compaction.js', dist).href)) as PiCompactionInternals;
const utils = (await import(new URL('utils.js', dist).href)) as PiUtils;

export interface PiReference extends PiCompactionInternals, PiUtils {
  parseSessionEntries: typeof piIndex.parseSessionEntries;
  migrateSessionEntries: typeof piIndex.migrateSessionEntries;
  buildSessionContext: typeof piIndex.buildSessionContext;
  estimateTokens: typeof piIndex.estimateTokens;
  convertToLlm: typeof piIndex.convertToLlm;
  loadPath(text: string): PiEntry[];
}

export const pi: PiReference = {
  parseSessionEntries: piIndex.parseSessionEntries,
  migrateSessionEntries: piIndex.migrateSessionEntries,
  buildSessionContext: piIndex.buildSessionContext,
  estimateTokens: piIndex.estimateTokens,
  convertToLlm: piIndex.convertToLlm,
  prepareCompaction: internals.prepareCompaction,
  estimateContextTokens: internals.estimateContextTokens,
  computeFileLists: utils.computeFileLists,
  /** A session file as pi loads it: parsed, migrated to format 3, header dropped. */
  loadPath(text: string): PiEntry[] {
    const entries = piIndex.parseSessionEntries(text);
    piIndex.migrateSessionEntries(entries);
    return entries.filter((entry): entry is PiEntry => entry.type !== 'session');
  },
};
