import { type Effect, ToolOutcome, TurnEvent } from '@tiller/core';
import { z } from 'zod';

export const JOURNAL_FORMAT = 'tiller.journal';
export const JOURNAL_VERSION = 2;

/** Starts a segment: one agent's run over a session, from the entry it began at. */
export const JournalHeader = z.object({
  type: z.literal('header'),
  format: z.literal(JOURNAL_FORMAT),
  version: z.literal(JOURNAL_VERSION),
  maxIterations: z.number().int().nonnegative(),
  /** The session entry the run started from (its path is the base of the replay); null for an empty session. */
  baseLeafId: z.string().nullable(),
  baseSize: z.number().int().nonnegative(),
  createdAt: z.string(),
});
export type JournalHeader = z.infer<typeof JournalHeader>;

/** One input the shell fed the core, and a digest of the effects it produced. */
export const JournalInput = z.object({
  type: z.literal('input'),
  seq: z.number().int().nonnegative(),
  input: TurnEvent,
  effects: z.array(z.string()),
});
export type JournalInput = z.infer<typeof JournalInput>;

/** A tool call is about to run (written before the tool starts). */
export const JournalToolStarted = z.object({ type: z.literal('tool.started'), batchId: z.string(), toolCallId: z.string() });
/** A tool call finished with this outcome. */
export const JournalToolFinished = z.object({ type: z.literal('tool.finished'), batchId: z.string(), toolCallId: z.string(), outcome: ToolOutcome });

export const JournalLine = z.discriminatedUnion('type', [JournalHeader, JournalInput, JournalToolStarted, JournalToolFinished]);
export type JournalLine = z.infer<typeof JournalLine>;

/** A short, stable description of an effect: what a replay must reproduce. */
export function effectDigest(effect: Effect): string {
  switch (effect.type) {
    case 'persist':
      return `persist ${effect.entries.map((e) => e.id).join(',')}`;
    case 'emit':
      return `emit ${effect.event.type}`;
    case 'maybe_compact':
      return `maybe_compact ${effect.id} ${effect.reason}${effect.force ? ' force' : ''}${effect.midRound ? ' mid-round' : ''}`;
    case 'call_llm':
      return `call_llm ${effect.id} ${effect.context.length} messages${effect.final ? ' final' : ''}`;
    case 'run_tools':
      return `run_tools ${effect.id} ${effect.calls.map((c) => c.id).join(',')}`;
    case 'request_approval':
      return `request_approval ${effect.id} ${effect.calls.map((c) => c.id).join(',')}`;
    default: {
      const unknown: never = effect;
      throw new TypeError(`unknown effect ${JSON.stringify(unknown)}`);
    }
  }
}

export class JournalError extends Error {
  override readonly name = 'JournalError';
}

/** Checks journal lines; the error names the line (1-based) and the field. */
export function parseJournalLines(text: string, source = 'journal'): JournalLine[] {
  const lines: JournalLine[] = [];
  const raw = text.split('\n');
  for (const [i, line] of raw.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      // A torn last line is what a crash mid-write leaves: the write it held never completed.
      if (i === raw.length - 1 || raw.slice(i + 1).every((l) => l.trim() === '')) break;
      throw new JournalError(`${source}:${i + 1}: not JSON: ${(error as Error).message}`);
    }
    const parsed = JournalLine.safeParse(value);
    if (!parsed.success) throw new JournalError(`${source}:${i + 1}: not a journal line:\n${z.prettifyError(parsed.error)}`);
    lines.push(parsed.data);
  }
  if (lines.length > 0 && lines[0]!.type !== 'header') throw new JournalError(`${source}:1: a journal starts with a header line`);
  return lines;
}

/** The lines of the last segment (its header first). */
export function lastSegment(lines: readonly JournalLine[]): { header: JournalHeader; lines: JournalLine[] } {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.type === 'header') return { header: line, lines: lines.slice(i) };
  }
  throw new JournalError('the journal has no header line');
}
