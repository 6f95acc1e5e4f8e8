import { z } from 'zod';
import { Message } from './message.js';
import { Usage } from './usage.js';

/** What every entry of a session log has: its id, its parent's id (null for a root), when it was written. */
const EntryBase = z.object({
  id: z.string().min(1),
  parentId: z.string().min(1).nullable(),
  /** ISO 8601 timestamp, supplied by whoever appended the entry (the core reads no clock). */
  at: z.string().min(1),
  /**
   * Data Tiller itself never reads: what an importer keeps from the source format so an export
   * can restore it, or a host's own annotations.
   */
  meta: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Why a user message joined the log, when the turn core appended it: the prompt that started a
 * turn, or a steer or follow-up delivered inside one. Entries from elsewhere (an import, a host)
 * have none; a user message without one counts as the start of a turn.
 */
export const UserOrigin = z.enum(['prompt', 'steer', 'follow_up']);
export type UserOrigin = z.infer<typeof UserOrigin>;

export const MessageEntry = EntryBase.extend({
  kind: z.literal('message'),
  message: Message,
  origin: UserOrigin.optional(),
});
export type MessageEntry = z.infer<typeof MessageEntry>;

export const FileLists = z.object({
  readFiles: z.array(z.string()),
  modifiedFiles: z.array(z.string()),
});
export type FileLists = z.infer<typeof FileLists>;

export const CompactionProvenance = z.object({
  /** `summarize`, `clearToolResults`, `keepTail`, or a custom compactor's own name. */
  strategy: z.string().min(1),
  summarizerModel: z.string().optional(),
  summarizerUsage: Usage.optional(),
  /** True when the compaction ran between tool rounds of one turn. */
  midRound: z.boolean().optional(),
});
export type CompactionProvenance = z.infer<typeof CompactionProvenance>;

/**
 * A compaction changes what the model sees, never what the log holds: the context becomes the
 * summary (when there is one), then the entries from `firstKeptEntryId` up to this entry, then
 * everything after it.
 */
export const CompactionEntry = EntryBase.extend({
  kind: z.literal('compaction'),
  /** Empty when the strategy keeps no summary (for example `keepTail`). */
  summary: z.string(),
  firstKeptEntryId: z.string().min(1),
  tokensBefore: z.number().nonnegative(),
  tokensAfter: z.number().nonnegative().optional(),
  /** The entries that left the context with this compaction, oldest first. */
  compactedEntryIds: z.array(z.string()).optional(),
  /** Tool results that stay in place (their call keeps its result) but whose content is replaced. */
  cleared: z
    .object({ entryIds: z.array(z.string()), placeholder: z.string() })
    .optional(),
  /** Kept assistant messages lose their thinking blocks (set by mid-round compaction). */
  stripThinking: z.boolean().optional(),
  details: FileLists.optional(),
  provenance: CompactionProvenance.optional(),
});
export type CompactionEntry = z.infer<typeof CompactionEntry>;

/** A summary of a branch the conversation left, carried into the branch it continues on. */
export const BranchSummaryEntry = EntryBase.extend({
  kind: z.literal('branch_summary'),
  fromId: z.string().min(1),
  summary: z.string(),
  details: FileLists.optional(),
});
export type BranchSummaryEntry = z.infer<typeof BranchSummaryEntry>;

/**
 * Host data in the log. With `message` it also joins the model's context at its place (a note the
 * host injects); without, the model never sees it (labels, model changes, imported extras).
 */
export const CustomEntry = EntryBase.extend({
  kind: z.literal('custom'),
  customType: z.string().min(1),
  data: z.unknown().optional(),
  message: Message.optional(),
});
export type CustomEntry = z.infer<typeof CustomEntry>;

export const Entry = z.discriminatedUnion('kind', [MessageEntry, CompactionEntry, BranchSummaryEntry, CustomEntry]);
export type Entry = z.infer<typeof Entry>;
export type EntryKind = Entry['kind'];
