import { splitTornLine } from '@tiller/core';
import { z } from 'zod';
import { JournalError } from '../errors/journal-error.js';
import { JournalLine, versionRefusal } from './journal-format.js';

/** A line whose write was cut short (a crash, a full disk): it never completed, so it is left out; `line` is 1-based. */
export interface TornLine {
  line: number;
  /** The start of what was there. */
  text: string;
}

export interface ParsedJournal {
  lines: JournalLine[];
  /** Torn lines that were left out, wherever they were: reported, never dropped silently. */
  torn: TornLine[];
}

/** A tool result the file keeps once, in the call's `tool.finished` line (see `compactToolResults`). */
const RecordedResult = z.object({ toolCallId: z.string(), recorded: z.literal(true) });

/**
 * Reads a journal's text. A line that is not JSON is what a write cut short leaves (later lines,
 * written after a restart, start on a line of their own): it is left out and listed in `torn`.
 * When the next run's header follows the torn bytes on that line (a writer that did not end the
 * line first), only the torn part is left out and the header starts its run.
 * Anything else wrong (a line that is JSON but not a journal line, a journal of another version)
 * throws a `JournalError` naming the line (1-based).
 */
export function parseJournal(text: string, source = 'journal'): ParsedJournal {
  const lines: JournalLine[] = [];
  const torn: TornLine[] = [];
  /** Outcomes of `tool.finished` lines of the current segment, by batch and call. */
  let finished = new Map<string, unknown>();
  // A byte-order mark an editor saved in front of the header would make it read as a torn line.
  const unmarked = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (const [i, raw] of unmarked.split('\n').entries()) {
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      // The next run's header may follow the torn bytes on the same line: it starts that run.
      const split = splitTornLine(raw);
      torn.push({ line: i + 1, text: (split?.torn ?? raw).slice(0, 80) });
      if (!split) continue;
      value = split.header;
    }
    const where = `${source}:${i + 1}`;
    const refused = isLine(value, 'header') ? versionRefusal(value) : undefined;
    if (refused) throw new JournalError(`${where}: ${refused}`);
    if (isLine(value, 'header')) finished = new Map();
    if (isLine(value, 'tool.finished')) finished.set(resultKey(value.batchId, value.toolCallId), value.outcome);
    if (isLine(value, 'input')) value = withRecordedResults(value, finished, where);
    const parsed = JournalLine.safeParse(value);
    if (!parsed.success) throw new JournalError(`${where}: not a journal line:\n${z.prettifyError(parsed.error)}`);
    if (lines.length === 0 && parsed.data.type !== 'header') {
      throw new JournalError(`${where}: a journal starts with a header line; its first line is a "${parsed.data.type}" line`);
    }
    lines.push(parsed.data);
  }
  return { lines, torn };
}

/** The lines of `parseJournal`, for a caller that does not need to hear of torn ones. */
export function parseJournalLines(text: string, source = 'journal'): JournalLine[] {
  return parseJournal(text, source).lines;
}

/** A `tools.done` input with each result the file kept once put back from its `tool.finished` line. */
function withRecordedResults(line: Record<string, unknown>, finished: ReadonlyMap<string, unknown>, where: string): unknown {
  const input = line.input as { type?: unknown; id?: unknown; results?: unknown } | undefined;
  if (input?.type !== 'tools.done' || !Array.isArray(input.results)) return line;
  const results = input.results.map((result: unknown) => {
    const recorded = RecordedResult.safeParse(result);
    if (!recorded.success) return result;
    const outcome = finished.get(resultKey(input.id, recorded.data.toolCallId));
    if (outcome === undefined) throw new JournalError(`${where}: the result of call "${recorded.data.toolCallId}" refers to a tool.finished line the segment does not have`);
    return outcome;
  });
  return { ...line, input: { ...input, results } };
}

/**
 * The key pairing a `tool.finished` line with the result a `tools.done` input names as recorded.
 * The ids are read before the line's schema is checked, so either may be any JSON value: `String`
 * of an object such as `{"toString": 1}` throws a bare TypeError, so a value that is no string
 * keys as its JSON text (the schema then refuses the line, naming it).
 */
function resultKey(batchId: unknown, toolCallId: unknown): string {
  const text = (id: unknown) => (typeof id === 'string' ? id : JSON.stringify(id) ?? 'undefined');
  return `${text(batchId)} ${text(toolCallId)}`;
}

function isLine<T extends string>(value: unknown, type: T): value is Record<string, unknown> & { type: T } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === type;
}
