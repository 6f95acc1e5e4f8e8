import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordNotebookSession } from '../../scripts/make-journals.js';
import { replaySegment } from '../replay/replay-segment.js';
import { segmentBase } from '../replay/segment-base.js';
import { appendJournalLine, emptyJournal, readJournal } from './read-journal.js';
import { isSessionText, readSession } from './read-session.js';

let dir: string;
let journalText: string;
let lines: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-read-journal-'));
  journalText = await readFile((await recordNotebookSession(dir)).journalFile, 'utf8');
  lines = journalText.split('\n').filter(Boolean);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Run 1's lines, its header first. */
const firstRun = () => lines.slice(0, lines.findIndex((l, i) => i > 0 && l.startsWith('{"type":"header"')));

/** The recorded journal with a run of a later version appended: its header says 5, its lines are run 1's. */
function withVersion5Run(): { text: string; headerLine: number; runLines: number } {
  const [header, ...body] = firstRun();
  const v5 = header!.replace('"version":4', '"version":5');
  expect(v5).not.toBe(header);
  return { text: `${[...lines, v5, ...body].join('\n')}\n`, headerLine: lines.length + 1, runLines: body.length + 1 };
}

describe('readJournal: a run this inspector cannot read', () => {
  it('keeps its lines out of the run before it, and names the run and its version', () => {
    const recorded = readJournal(journalText);
    const { text, headerLine, runLines } = withVersion5Run();
    expect(runLines).toBeGreaterThan(10);
    const journal = readJournal(text);
    // The readable runs are exactly as recorded: the version-5 run's inputs joined none of them.
    expect(journal.segments.map((s) => s.inputs.length)).toEqual(recorded.segments.map((s) => s.inputs.length));
    const last = journal.segments.at(-1)!;
    expect(replaySegment(last, segmentBase(last, undefined, journal.segments.slice(0, -1).map((s) => replaySegment(s, [])))).firstDivergence).toBeNull();
    expect(journal.runs.map((r) => r.kind)).toEqual([...recorded.segments.map(() => 'readable'), 'unreadable']);
    expect(journal.runs.at(-1)).toEqual({
      kind: 'unreadable',
      number: recorded.segments.length + 1,
      line: headerLine,
      lines: runLines,
      reason: 'it is journal version 5; this inspector reads versions 1, 2, 3, 4',
    });
    expect(journal.problems).toEqual([
      { line: headerLine, message: `journal line ${headerLine}: run ${recorded.segments.length + 1} cannot be read: it is journal version 5; this inspector reads versions 1, 2, 3, 4. Its lines are skipped.` },
    ]);
    expect(journal.lines).toBe(lines.length + runLines);
  });

  it('does the same for a live journal read line by line, and reads a readable run after it', () => {
    const { text } = withVersion5Run();
    const journal = emptyJournal();
    for (const line of `${text}${lines.join('\n')}\n`.split('\n').filter(Boolean)) appendJournalLine(journal, line);
    const recorded = readJournal(journalText).segments.map((s) => s.inputs.length);
    expect(journal.runs.map((r) => r.kind)).toEqual([...recorded.map(() => 'readable'), 'unreadable', ...recorded.map(() => 'readable')]);
    expect(journal.segments.map((s) => s.inputs.length)).toEqual([...recorded, ...recorded]);
    expect(journal.segments.map((s) => s.number)).toEqual([1, 2, 4, 5]);
  });

  it('refuses a header of another format the same way', () => {
    const foreign = lines[0]!.replace('"tiller.journal"', '"other.journal"');
    const journal = readJournal(`${[...lines, foreign, ...lines.slice(1, 4)].join('\n')}\n`);
    expect(journal.segments.map((s) => s.inputs.length)).toEqual(readJournal(journalText).segments.map((s) => s.inputs.length));
    expect(journal.runs.at(-1)).toMatchObject({ kind: 'unreadable', lines: 4, reason: 'its header says "format" is "other.journal", not "tiller.journal"' });
  });
});

describe('readJournal, readSession and isSessionText: a file saved with a byte-order mark', () => {
  it('reads it as the same file without the mark', async () => {
    expect(readJournal(`\uFEFF${journalText}`)).toEqual(readJournal(journalText));
    const sessionText = await readFile(join(dir, 'notebook.jsonl'), 'utf8');
    expect(isSessionText(`\uFEFF${sessionText}`)).toBe(true);
    expect(readSession(`\uFEFF${sessionText}`, 'chat.jsonl')).toEqual(readSession(sessionText, 'chat.jsonl'));
  });
});

describe('readJournal: a torn line that holds the header of the next run', () => {
  /**
   * Run 1 cut short in its 7th line by a crash, then run 1 again as the next run, appended by a
   * writer that did not end the torn line first: the new header follows the torn bytes on one line.
   */
  function tornThenNewRun(): { text: string; run: string[]; tornLine: number; tornPart: string } {
    const run = firstRun();
    const tornPart = run[6]!.slice(0, 30);
    const text = `${[...run.slice(0, 6), tornPart + run[0], ...run.slice(1)].join('\n')}\n`;
    return { text, run, tornLine: 7, tornPart };
  }

  it('starts the new run at that header, reports the torn part, and keeps the runs apart', () => {
    const { text, run, tornLine, tornPart } = tornThenNewRun();
    const whole = readJournal(`${run.join('\n')}\n`).segments[0]!;
    const cut = readJournal(`${run.slice(0, 6).join('\n')}\n`).segments[0]!;
    const journal = readJournal(text);
    expect(journal.segments.map((s) => s.inputs.length)).toEqual([cut.inputs.length, whole.inputs.length]);
    expect(journal.segments[1]!.header).toEqual(whole.header);
    expect(journal.segments[1]!.inputs[0]!.line).toBe(tornLine + 1);
    for (const segment of journal.segments) expect(replaySegment(segment, []).firstDivergence).toBeNull();
    expect(journal.problems).toEqual([
      { line: tornLine, message: `journal line ${tornLine}: its first ${tornPart.length} characters are a write that was cut off (skipped); the next run's header follows them on the same line` },
    ]);
  });

  it('does the same for a live journal read line by line', () => {
    const { text } = tornThenNewRun();
    const journal = emptyJournal();
    for (const line of text.split('\n').filter(Boolean)) appendJournalLine(journal, line);
    expect(journal).toEqual(readJournal(text));
  });
});

describe('readJournal: a run of version 1', () => {
  /**
   * Run 1 as version 1 wrote it (the shell's journal-format.ts of that version): the header names no
   * model, an input records no hash, tool lines no time, and an answer names its effect `callId`,
   * `batchId` or `compactionId` instead of `id`.
   */
  function asVersion1(run: string[]): string {
    const name: Record<string, string> = { 'llm.done': 'callId', 'llm.failed': 'callId', 'tools.done': 'batchId', 'approval.needed': 'batchId', 'approval.decided': 'batchId', 'compaction.done': 'compactionId' };
    const lines = run.map((text) => {
      const line = JSON.parse(text) as Record<string, unknown>;
      if (line.type === 'header') return { type: 'header', format: line.format, version: 1, maxIterations: line.maxIterations, baseLeafId: line.baseLeafId, baseSize: line.baseSize, createdAt: line.createdAt };
      if (line.type !== 'input') return { type: line.type, batchId: line.batchId, toolCallId: line.toolCallId, ...(line.type === 'tool.finished' ? { outcome: line.outcome } : {}) };
      const { id, ...input } = line.input as Record<string, unknown>;
      const key = name[input.type as string];
      return { type: 'input', seq: line.seq, input: key ? { ...input, [key]: id } : input, effects: line.effects };
    });
    return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
  }

  it('replays as recorded: its answers reach the core by the id they name', () => {
    const run = firstRun();
    const v1 = readJournal(asVersion1(run));
    expect(v1.problems).toEqual([]);
    const segment = v1.segments[0]!;
    expect(segment.header).toMatchObject({ version: 1, model: undefined });
    expect(segment.inputs.map((i) => i.input.type)).toEqual(readJournal(`${run.join('\n')}\n`).segments[0]!.inputs.map((i) => i.input.type));
    const replay = replaySegment(segment, []);
    expect(replay.firstDivergence).toBeNull();
    expect(replay.steps).toHaveLength(segment.inputs.length);
  });
});

describe('readJournal: a run of version 3', () => {
  it('reads and replays it as recorded: version 3 is version 4 without tool.refused lines', () => {
    const run = firstRun();
    const v3 = run.filter((text) => !text.startsWith('{"type":"tool.refused"')).map((text) => text.replace('"version":4', '"version":3'));
    const journal = readJournal(`${v3.join('\n')}\n`);
    expect(journal.problems).toEqual([]);
    const segment = journal.segments[0]!;
    expect(segment.header.version).toBe(3);
    expect(segment.inputs.map((i) => i.input.type)).toEqual(readJournal(`${run.join('\n')}\n`).segments[0]!.inputs.map((i) => i.input.type));
    expect(replaySegment(segment, []).firstDivergence).toBeNull();
  });
});

describe('readJournal: a batch with a refused call', () => {
  it('reads the shell\'s tool.refused line without a problem, and the refused call\'s result from the batch\'s answer', async () => {
    const { createAgent, memoryJournal } = await import('@tiller/shell');
    const { scriptedModel } = await import('@tiller/testing');
    const journal = memoryJournal();
    const agent = createAgent({ model: scriptedModel([{ toolCalls: [{ id: 'u', name: 'nope', args: {} }] }, { text: 'done' }]), journal });
    await agent.prompt('go');
    await agent.close();
    const text = `${journal.lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
    expect(text).toContain('"type":"tool.refused"');
    const read = readJournal(text);
    expect(read.problems).toEqual([]);
    const done = read.segments[0]!.inputs.find((i) => i.input.type === 'tools.done')!.input as unknown as { results: Array<{ toolCallId: string; isError: boolean }> };
    expect(done.results).toMatchObject([{ toolCallId: 'u', isError: true }]);
  });
});

describe('readJournal: a header whose counts are not whole numbers', () => {
  it('reads the run with the default count, names the line and field, and replays it', () => {
    for (const odd of [1.5, -1, 1e308, '25', null]) {
      const [header, ...body] = firstRun();
      const spoiled = JSON.parse(header!) as Record<string, unknown>;
      spoiled.maxIterations = odd;
      const journal = readJournal(`${[JSON.stringify(spoiled), ...body].join('\n')}\n`);
      expect(journal.segments).toHaveLength(1);
      expect(journal.segments[0]!.header.maxIterations).toBe(25);
      expect(journal.problems).toEqual([{ line: 1, message: `journal line 1: "maxIterations" is ${JSON.stringify(odd)}, not a whole number of iterations; read as 25` }]);
      // Before, the core refused the count when the run was replayed: a TurnConfigError that stopped the page.
      expect(replaySegment(journal.segments[0]!, segmentBase(journal.segments[0]!, undefined, [])).steps).toHaveLength(journal.segments[0]!.inputs.length);
    }
  });
});

describe('readJournal: a tool.finished line whose outcome is not a tool outcome', () => {
  /** The journal with the outcome on the last tool.finished line replaced by `outcome`; that line's number and call id. */
  function withOutcome(outcome: unknown): { text: string; line: number; toolCallId: string } {
    const index = lines.findLastIndex((l) => l.startsWith('{"type":"tool.finished"'));
    const finished = JSON.parse(lines[index]!) as { toolCallId: string };
    const changed = lines.map((l, i) => (i === index ? JSON.stringify({ ...finished, outcome }) : l));
    return { text: `${changed.join('\n')}\n`, line: index + 1, toolCallId: finished.toolCallId };
  }

  it.each([
    ['an isError that is no boolean', { content: [], isError: 'yes' }, 'isError: '],
    ['content that is no list', { content: 5, isError: false }, 'content: '],
    ['null', null, '(the outcome): '],
    ['a string', 'ok', '(the outcome): '],
  ])('names the line, the call and the field for %s, and shows the call without that outcome', (_, outcome, field) => {
    const { text, line, toolCallId } = withOutcome(outcome === null || typeof outcome === 'string' ? outcome : { toolCallId: 'x', ...outcome });
    const journal = readJournal(text);
    const problems = journal.problems.map((p) => p.message);
    expect(problems[0]).toMatch(new RegExp(`^journal line ${line}: the outcome of tool call "${toolCallId}" is not a tool outcome \\(${field.replace(/[()]/g, '\\$&')}.+\\)$`));
    // The batch's answer names that outcome as recorded: the problem says its line cannot be read, not that it is missing.
    expect(problems[1]).toBe(`journal line ${line + 1}: the results of "${toolCallId}" refer to tool.finished lines that cannot be read`);
    const run = journal.segments.find((segment) => segment.tools.has(toolCallId))!.tools.get(toolCallId)!;
    expect(run.finished).toBe(true);
    expect(run.outcome).toBeUndefined();
  });
});

describe('readSession: entries whose parents make a loop', () => {
  it('reads an entry whose parent is not on an earlier line as a root, names the line, and the replay base walk ends', () => {
    const entry = (id: string, parentId: string | null) => JSON.stringify({ kind: 'message', id, parentId, at: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: id } });
    const text = `${[JSON.stringify({ type: 'tiller.session', version: 2, id: 's' }), entry('a', 'b'), entry('b', 'a'), entry('c', 'c')].join('\n')}\n`;
    const session = readSession(text, 'chat.jsonl');
    expect(session.entries.map((e) => [e.id, e.parentId])).toEqual([['a', null], ['b', 'a'], ['c', null]]);
    expect(session.problems).toEqual([
      { line: 2, message: 'chat.jsonl:2, field parentId: parent "b" is not an earlier entry; kept as a root' },
      { line: 4, message: 'chat.jsonl:4, field parentId: parent "c" is not an earlier entry; kept as a root' },
    ]);
    // Before, the walk from "b" to the root went a, b, a, … until the page ran out of memory.
    const header = JSON.stringify({ type: 'header', format: 'tiller.journal', version: 4, model: { id: 'm', contextWindow: null }, maxIterations: 25, baseLeafId: 'b', baseSize: 2, createdAt: 'x' });
    const [segment] = readJournal(`${header}\n`).segments;
    expect(segmentBase(segment!, session, []).map((e) => e.id)).toEqual(['a', 'b']);
    // An id on a second line cannot close the loop either (the later "a" names "b"): the later line wins and
    // is read after "b", so "b" stays a root.
    const repeated = readSession(`${text}${entry('a', 'b')}\n`, 'chat.jsonl');
    expect(repeated.byId.get('a')?.parentId).toBe('b');
    expect(repeated.byId.get('b')?.parentId).toBe(null);
    expect(segmentBase(segment!, repeated, []).map((e) => e.id)).toEqual(['b']);
  });
});

describe('readSession: an entry the core cannot hold', () => {
  it('skips the line with a problem naming the line and field; the rest loads and a run over it replays', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const text = `${[
      JSON.stringify({ type: 'tiller.session', version: 2, id: 's' }),
      JSON.stringify({ kind: 'message', id: 'a', parentId: null, at, message: { role: 'user', content: 'hi' } }),
      JSON.stringify({ kind: 'message', id: 'b', parentId: 'a', at, message: { role: 'assistant', content: [null] } }),
      JSON.stringify({ kind: 'custom_message', id: 'c', parentId: 'a', at, content: null }),
      JSON.stringify({ kind: 'message', id: 'd', parentId: 'a', at, message: null }),
    ].join('\n')}\n`;
    const session = readSession(text, 'chat.jsonl');
    expect(session.entries.map((e) => e.id)).toEqual(['a']);
    expect(session.problems.map((p) => p.line)).toEqual([3, 4, 5]);
    expect(session.problems[0]!.message).toMatch(/^chat\.jsonl:3, field message\.content\[0\]: .+; line skipped$/);
    expect(session.problems[1]!.message).toMatch(/^chat\.jsonl:4, field kind: .+; line skipped$/);
    expect(session.problems[2]!.message).toMatch(/^chat\.jsonl:5, field message: .+; line skipped$/);
    // Before, the entries went to the core as they were: its step threw a TypeError (content [null]) or a TurnConfigError (kind custom_message).
    for (const leaf of ['a', 'b', 'c']) {
      const header = JSON.stringify({ type: 'header', format: 'tiller.journal', version: 4, model: { id: 'm', contextWindow: null }, maxIterations: 25, baseLeafId: leaf, baseSize: 2, createdAt: 'x' });
      const turn = JSON.stringify({ type: 'input', seq: 0, input: { type: 'turn.start', turnId: 't', at, message: { role: 'user', content: 'go' } }, effects: [] });
      const [segment] = readJournal(`${header}\n${turn}\n`).segments;
      expect(replaySegment(segment!, segmentBase(segment!, session, [])).steps).toHaveLength(1);
    }
  });
});
