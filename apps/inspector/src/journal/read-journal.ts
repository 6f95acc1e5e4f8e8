/**
 * The one place that knows the journal's line format (written by @tiller/shell's
 * journal-format.ts). It runs in the browser, so it depends on nothing but @tiller/core; when the
 * format changes, this file changes. Versions 1 to 4 are read: 2 names every effect id and answer
 * id `id` (a version 1 answer's is renamed as it is read, `withAnswerId`); 3 adds the model and its
 * context window to the header, times to the tool lines, a hash of each input's effects, and
 * keeps a tool's output once, in its `tool.finished` line (the `tools.done` input names it as
 * `{toolCallId, recorded: true}`, put back here). Version 3 headers
 * may also carry the compactor's `reserveTokens` (an optional field: older version 3 journals lack it).
 * 4 adds a `tool.refused` line for a call refused before it could run.
 */
import { type Effect, splitTornLine, ToolOutcome } from '@tiller/core';
import { withoutByteOrderMark } from './byte-order-mark.js';
import { lastContentLine } from './last-content-line.js';

export interface SegmentHeader {
  version: number;
  maxIterations: number;
  baseLeafId: string | null;
  baseSize: number;
  createdAt: string;
  /** From version 2 on. */
  model: string | undefined;
  contextWindow: number | undefined;
  /**
   * Room the compactor keeps free at the top of the window (it compacts above `contextWindow -
   * reserveTokens`), when the header records it: an optional field of version 3.
   */
  reserveTokens: number | undefined;
}

/** One input the shell fed the core, with the digests of the effects it produced then. */
export interface RecordedInput {
  seq: number;
  /** 1-based line of the journal file, for messages. */
  line: number;
  input: { type: string; at?: string; [key: string]: unknown };
  effects: string[];
  /** From version 3: a hash of the effects' whole content (@tiller/core's `effectsHash`). */
  hash: string | undefined;
}

/** A tool call as the journal saw it run. */
export interface ToolRun {
  batchId: string;
  toolCallId: string;
  startedAt: string | undefined;
  finishedAt: string | undefined;
  /** A `tool.finished` line was read (version 1 lines carry no time). */
  finished: boolean;
  /** What it returned; undefined until it finished, and when its line's outcome cannot be read. */
  outcome: ToolOutcome | undefined;
}

export interface JournalSegment {
  /** Position among the readable runs (`segments[index]`). */
  index: number;
  /** 1-based position among all the journal's runs, readable or not: the page's "run N". */
  number: number;
  header: SegmentHeader;
  inputs: RecordedInput[];
  /** By tool call id, in the order they started. */
  tools: Map<string, ToolRun>;
}

export interface JournalProblem {
  line: number;
  message: string;
}

/**
 * A run whose header this inspector refused (a later journal version, another format). Its lines
 * are counted here and read into no run: put in the run before it, they would make that run's
 * replay differ from its recording.
 */
export interface UnreadableRun {
  kind: 'unreadable';
  number: number;
  /** 1-based line of its header. */
  line: number;
  /** Lines it holds, its header included. */
  lines: number;
  /** Why it cannot be read, for example `it is journal version 5; this inspector reads versions 1, 2, 3, 4`. */
  reason: string;
}

/** Every run of a journal in file order; the lines after a header belong to its run. */
export type JournalRun = { kind: 'readable'; segment: JournalSegment } | UnreadableRun;

export interface ParsedJournal {
  /** The runs this inspector reads, in file order. */
  segments: JournalSegment[];
  /** All runs, in file order, those it cannot read included. */
  runs: JournalRun[];
  /** Lines that could not be read; everything around them still loads. */
  problems: JournalProblem[];
  /** Lines read so far (the next line to feed `appendJournalLine` is `lines + 1`). */
  lines: number;
}

export const JOURNAL_FORMAT = 'tiller.journal';
export const READABLE_VERSIONS: ReadonlySet<number> = new Set([1, 2, 3, 4]);

export function emptyJournal(): ParsedJournal {
  return { segments: [], runs: [], problems: [], lines: 0 };
}

/**
 * Reads a whole journal file. A torn line (a write cut off by a crash or a full disk) is reported, not fatal; when the next
 * run's header follows the torn bytes on that line, the header starts its run there.
 */
export function readJournal(text: string): ParsedJournal {
  const journal = emptyJournal();
  const raw = text.split('\n');
  // The newline after the last line ends that line; it does not start another.
  if (raw.at(-1) === '') raw.pop();
  const last = lastContentLine(raw);
  for (const [i, line] of raw.entries()) {
    if (i > last || line.trim() === '') {
      journal.lines = i + 1;
      continue;
    }
    appendJournalLine(journal, line, { lastLine: i === last });
  }
  return journal;
}

/**
 * Adds one line (a live journal arrives line by line). Returns the segment it went to, or null
 * when the line was not usable (the problem is recorded) or belongs to a run this inspector
 * cannot read.
 */
export function appendJournalLine(journal: ParsedJournal, text: string, options: { lastLine?: boolean } = {}): JournalSegment | null {
  journal.lines += 1;
  const line = journal.lines;
  const problem = (message: string) => {
    journal.problems.push({ line, message: `journal line ${line}: ${message}` });
    return null;
  };
  const unmarked = line === 1 ? withoutByteOrderMark(text) : text;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(unmarked) as Record<string, unknown>;
  } catch (error) {
    // The next run's header may follow the torn bytes on the same line: it starts that run.
    const split = splitTornLine(unmarked);
    if (!split) return problem(options.lastLine ? 'the last line is incomplete (a write was cut off); skipped' : `not JSON (${(error as Error).message})`);
    problem(`its first ${split.torn.length} characters are a write that was cut off (skipped); the next run's header follows them on the same line`);
    value = split.header;
  }
  if (typeof value !== 'object' || value === null) return problem('not a JSON object');
  if (value.type === 'header') {
    const refused = refusal(value);
    const number = journal.runs.length + 1;
    if (refused) {
      journal.runs.push({ kind: 'unreadable', number, line, lines: 1, reason: refused });
      return problem(`run ${number} cannot be read: ${refused}. Its lines are skipped.`);
    }
    const segment: JournalSegment = { index: journal.segments.length, number, header: headerOf(value, problem), inputs: [], tools: new Map() };
    journal.segments.push(segment);
    journal.runs.push({ kind: 'readable', segment });
    return segment;
  }
  const run = journal.runs.at(-1);
  if (!run) return problem('a journal starts with a header line');
  if (run.kind === 'unreadable') {
    run.lines += 1;
    return null;
  }
  const segment = run.segment;
  switch (value.type) {
    case 'input': {
      const recorded = value.input as RecordedInput['input'] | undefined;
      if (typeof value.seq !== 'number') return problem('"seq" is not a number');
      if (!recorded || typeof recorded.type !== 'string') return problem('"input" has no "type"');
      const input = segment.header.version === 1 ? withAnswerId(recorded) : recorded;
      const effects = Array.isArray(value.effects) ? value.effects.filter((e): e is string => typeof e === 'string') : [];
      const { missing, unreadable } = putBackRecordedResults(input, segment);
      const names = (ids: string[]) => ids.map((id) => `"${id}"`).join(', ');
      if (missing.length > 0) problem(`the results of ${names(missing)} refer to tool.finished lines the segment does not have`);
      if (unreadable.length > 0) problem(`the results of ${names(unreadable)} refer to tool.finished lines that cannot be read`);
      segment.inputs.push({ seq: value.seq, line, input, effects, hash: typeof value.hash === 'string' ? value.hash : undefined });
      return segment;
    }
    case 'tool.started':
    case 'tool.finished': {
      const toolCallId = value.toolCallId;
      const batchId = (value.id ?? value.batchId) as unknown;
      if (typeof toolCallId !== 'string' || typeof batchId !== 'string') return problem(`"${value.type}" needs a toolCallId and a batch id`);
      const run = segment.tools.get(toolCallId) ?? { batchId, toolCallId, startedAt: undefined, finishedAt: undefined, finished: false, outcome: undefined };
      const at = typeof value.at === 'string' ? value.at : undefined;
      if (value.type === 'tool.started') run.startedAt = at;
      else {
        run.finishedAt = at;
        run.finished = true;
        // The page draws the outcome and the replay hands it to the core: a damaged one is named here, once.
        const outcome = ToolOutcome.safeParse(value.outcome);
        run.outcome = outcome.success ? outcome.data : undefined;
        if (!outcome.success) {
          const issue = outcome.error.issues[0]!;
          problem(`the outcome of tool call "${toolCallId}" is not a tool outcome (${issue.path.join('.') || '(the outcome)'}: ${issue.message})`);
        }
      }
      segment.tools.set(toolCallId, run);
      return segment;
    }
    case 'tool.refused':
      // The refusal's message is the call's result, which the batch's `tools.done` input carries too.
      return segment;
    default:
      return problem(`unknown line type ${JSON.stringify(value.type)}`);
  }
}

/** Why this inspector cannot read the run a header starts, or undefined when it can. */
function refusal(header: Record<string, unknown>): string | undefined {
  if (header.format !== JOURNAL_FORMAT) return `its header says "format" is ${JSON.stringify(header.format)}, not "${JOURNAL_FORMAT}"`;
  if (typeof header.version !== 'number' || !READABLE_VERSIONS.has(header.version)) {
    return `it is journal version ${JSON.stringify(header.version)}; this inspector reads versions ${[...READABLE_VERSIONS].join(', ')}`;
  }
  return undefined;
}

/**
 * A `tools.done` input names each result the file keeps once as `{toolCallId, recorded: true}`:
 * put the outcome back from the call's `tool.finished` line (same batch). Returns the calls whose
 * line is missing, and those whose line's outcome could not be read.
 */
function putBackRecordedResults(input: RecordedInput['input'], segment: JournalSegment): { missing: string[]; unreadable: string[] } {
  const missing: string[] = [];
  const unreadable: string[] = [];
  if (input.type !== 'tools.done' || !Array.isArray(input.results)) return { missing, unreadable };
  const batchId = inputAnswerId(input);
  input.results = input.results.map((result: { toolCallId?: unknown; recorded?: unknown }) => {
    if (result?.recorded !== true || typeof result.toolCallId !== 'string') return result;
    const run = segment.tools.get(result.toolCallId);
    const line = run !== undefined && run.batchId === batchId && run.finished ? run : undefined;
    if (line?.outcome) return line.outcome;
    (line ? unreadable : missing).push(result.toolCallId);
    return result;
  });
  return { missing, unreadable };
}

function headerOf(value: Record<string, unknown>, problem: (message: string) => void): SegmentHeader {
  const number = (v: unknown) => (typeof v === 'number' ? v : undefined);
  // Version 3: `model: {id, contextWindow}`; earlier drafts named them at the top level.
  const model = typeof value.model === 'object' && value.model !== null ? (value.model as { id?: unknown; contextWindow?: unknown }) : undefined;
  return {
    version: value.version as number,
    maxIterations: maxIterationsOf(value, problem),
    baseLeafId: typeof value.baseLeafId === 'string' ? value.baseLeafId : null,
    baseSize: number(value.baseSize) ?? 0,
    createdAt: typeof value.createdAt === 'string' ? value.createdAt : '',
    model: typeof model?.id === 'string' ? model.id : typeof value.model === 'string' ? value.model : undefined,
    contextWindow: number(model?.contextWindow) ?? number(value.contextWindow),
    reserveTokens: number(value.reserveTokens),
  };
}

/** The shell's default, for a header without the field (and one whose count is no count). */
const DEFAULT_MAX_ITERATIONS = 25;

/**
 * The header's `maxIterations`. The replay hands it to the core's `start`, which refuses a count
 * that is not a whole number (1.5, -1, 1e308) with a TurnConfigError that stopped the page: such a
 * count is read as the default, and the line named.
 */
function maxIterationsOf(value: Record<string, unknown>, problem: (message: string) => void): number {
  const count = value.maxIterations;
  if (count === undefined) return DEFAULT_MAX_ITERATIONS;
  if (typeof count === 'number' && Number.isSafeInteger(count) && count >= 0) return count;
  problem(`"maxIterations" is ${JSON.stringify(count)}, not a whole number of iterations; read as ${DEFAULT_MAX_ITERATIONS}`);
  return DEFAULT_MAX_ITERATIONS;
}

/**
 * A version 1 answer names the effect it answers `callId`, `batchId` or `compactionId`; from
 * version 2 on it is `id`, the only name today's core reads. Renamed as it is read, so the core
 * takes the answer instead of ignoring it, and the run replays as it was recorded.
 */
function withAnswerId(input: RecordedInput['input']): RecordedInput['input'] {
  const id = inputAnswerId(input);
  if (id === undefined || input.id !== undefined) return input;
  const { callId: _call, batchId: _batch, compactionId: _compaction, ...rest } = input;
  return { ...rest, id };
}

/** The id a blocking effect carries (its answer names the same id). */
export function effectId(effect: Effect): string {
  const e = effect as unknown as Record<string, unknown>;
  return String(e.id ?? e.callId ?? e.batchId ?? e.compactionId ?? '');
}

/** The id an answering input carries. */
export function inputAnswerId(input: RecordedInput['input']): string | undefined {
  const id = input.id ?? input.callId ?? input.batchId ?? input.compactionId;
  return typeof id === 'string' ? id : undefined;
}

