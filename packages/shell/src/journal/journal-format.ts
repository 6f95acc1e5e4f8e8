import { ToolOutcome, TurnEvent } from '@tiller/core';
import { z } from 'zod';
import { JournalError } from '../errors/journal-error.js';
import { ToolRefusalReason } from '../tools/tool-refusal.js';

export const JOURNAL_FORMAT = 'tiller.journal';
/**
 * The format this shell writes. 3: every blocking effect and its answer carry one `id`, every
 * segment header names the model and its window, tool lines carry their time. 4: a call refused
 * before it could run has a `tool.refused` line, so a resume keeps it refused and tells no one
 * again. A field added later as optional (the header's `reserveTokens` and `sessionSize`) keeps
 * the version: a journal without it reads and replays as before.
 */
export const JOURNAL_VERSION = 4;

/**
 * The versions this shell reads. A version 3 journal is a version 4 journal without refusal lines:
 * it reads and replays as it is, and a resumed agent finishes its turn in that segment in version
 * 3 (see `recordsRefusals`), then starts a version 4 segment with its next turn. Versions 1 and 2 are refused with both versions named: their inputs answer
 * effects by other ids and lack what version 3 records, so a replay of today's core cannot
 * reproduce them.
 */
export const READ_VERSIONS = [3, JOURNAL_VERSION] as const;

/** Whether a segment of `version` records refused calls (`tool.refused` lines): from version 4. */
export function recordsRefusals(version: number): boolean {
  return version >= 4;
}

/**
 * Why this shell cannot read a header's segment, for a header of a version it does not read
 * (older or newer), in words naming both versions; undefined for a header it reads or of
 * another format (which the line's schema refuses). Every reader asks it: `parseJournal` for a
 * file, `replayJournal` (and so `resumeAgent`) for lines a store handed back unparsed.
 */
export function versionRefusal(header: Readonly<Record<string, unknown>>, what = 'the journal'): string | undefined {
  if (header.format !== JOURNAL_FORMAT || (READ_VERSIONS as readonly unknown[]).includes(header.version)) return undefined;
  const written = header.version === undefined ? `names no version of ${JOURNAL_FORMAT} in its header` : `is in version ${JSON.stringify(header.version)} of ${JOURNAL_FORMAT}`;
  return `${what} ${written}; this shell reads versions ${READ_VERSIONS.join(' and ')}. Replay it with the Tiller release that wrote it.`;
}

/** Starts a segment: one agent's run over a session from the entry it began at, until the agent ends or the log moves under it. */
export const JournalHeader = z.object({
  type: z.literal('header'),
  format: z.literal(JOURNAL_FORMAT),
  version: z.literal(READ_VERSIONS),
  /** The agent's model, and its context window when the shell knew it (what an inspector's gauge is measured against). */
  model: z.object({ id: z.string(), contextWindow: z.number().int().positive().nullable() }),
  /**
   * The compactor's reserve (`Compactor.reserveFor`): it compacts once the context passes
   * `contextWindow - reserveTokens`, and an inspector's gauge marks it. Absent when the compactor
   * has none (NoOp), and in journals written before it was recorded.
   */
  reserveTokens: z.number().int().nonnegative().optional(),
  maxIterations: z.number().int().nonnegative(),
  /** The session entry the run started from (its path is the base of the replay); null for an empty session. */
  baseLeafId: z.string().nullable(),
  baseSize: z.number().int().nonnegative(),
  /**
   * How many entries the whole log held when the segment started: whatever was appended after
   * that and is not the segment's own came from outside it, which a resume must not run past.
   * Absent in segments written before it was recorded.
   */
  sessionSize: z.number().int().nonnegative().optional(),
  createdAt: z.string(),
});
export type JournalHeader = z.infer<typeof JournalHeader>;

/**
 * One input the shell fed the core, and what it produced: a digest of each effect (readable, for
 * a report) and a hash of the effects' whole content (what a replay must reproduce exactly).
 */
export const JournalInput = z.object({
  type: z.literal('input'),
  seq: z.number().int().nonnegative(),
  input: TurnEvent,
  effects: z.array(z.string()),
  hash: z.string(),
});
export type JournalInput = z.infer<typeof JournalInput>;

/** A tool call is about to run (written before the tool starts). */
export const JournalToolStarted = z.object({ type: z.literal('tool.started'), batchId: z.string(), toolCallId: z.string(), at: z.string() });
/** A tool call finished with this outcome. */
export const JournalToolFinished = z.object({ type: z.literal('tool.finished'), batchId: z.string(), toolCallId: z.string(), outcome: ToolOutcome, at: z.string() });

/**
 * A call of the batch was refused before anything ran, and the host is about to be told
 * (`tool.refused`): a resume keeps it refused with this message and does not tell it again. From
 * version 4.
 */
export const JournalToolRefused = z.object({
  type: z.literal('tool.refused'),
  batchId: z.string(),
  toolCallId: z.string(),
  reason: ToolRefusalReason,
  message: z.string(),
  at: z.string(),
});

export const JournalLine = z.discriminatedUnion('type', [JournalHeader, JournalInput, JournalToolStarted, JournalToolFinished, JournalToolRefused]);
export type JournalLine = z.infer<typeof JournalLine>;

/** The segments of a journal, in order: each an agent's run, its header first. */
export function journalSegments(lines: readonly JournalLine[]): Array<{ header: JournalHeader; lines: JournalLine[] }> {
  const segments: Array<{ header: JournalHeader; lines: JournalLine[] }> = [];
  for (const line of lines) {
    if (line.type === 'header') segments.push({ header: line, lines: [line] });
    else segments.at(-1)?.lines.push(line);
  }
  return segments;
}

/** The lines of the last segment (its header first). */
export function lastSegment(lines: readonly JournalLine[]): { header: JournalHeader; lines: JournalLine[] } {
  const last = journalSegments(lines).at(-1);
  if (!last) throw new JournalError('the journal has no header line');
  return last;
}
