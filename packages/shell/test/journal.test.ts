import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeSnapshot } from '@tiller/core';
import { NoOpCompactor, WindowManager } from '@tiller/compaction';
import { createSessionLog, JsonlStore, MemoryStore } from '@tiller/session';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, fileJournal, JOURNAL_VERSION, JournalError, memoryJournal, parseJournal, parseJournalLines, replayJournal, resumeAgent, type AgentEvent, type JournalLine } from '../src/index.js';
import { scriptedModel } from '@tiller/testing';
import { recordingTools } from './helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function toolTurn() {
  const { echo, calls } = recordingTools();
  const model = scriptedModel([
    { toolCalls: [{ name: 'echo', args: { text: 'a' } }, { name: 'echo', args: { text: 'b' } }] },
    { text: 'done' },
    { text: 'second turn' },
  ]);
  const journal = memoryJournal();
  const agent = createAgent({ model, tools: [echo], journal });
  await agent.prompt('first');
  await agent.prompt('second');
  return { agent, journal, calls, model };
}

describe('the journal', () => {
  it('records every input the shell fed the core, and replays to the same snapshot with no model and no tool', async () => {
    const { agent, journal, calls, model } = await toolTurn();
    const lines = journal.lines;
    expect(lines[0]).toMatchObject({ type: 'header', format: 'tiller.journal', version: JOURNAL_VERSION, baseLeafId: null, baseSize: 0 });
    const inputs = lines.filter((l) => l.type === 'input');
    expect(inputs.map((l) => l.input.type)).toEqual([
      'turn.start', 'compaction.done', 'llm.done', 'tools.done', 'compaction.done', 'llm.done',
      'turn.start', 'compaction.done', 'llm.done',
    ]);
    expect(lines.filter((l) => l.type === 'tool.finished')).toHaveLength(2);

    const replay = replayJournal(lines);
    expect(replay.divergence).toBeNull();
    expect(replay.inputs).toBe(9);
    expect(serializeSnapshot(replay.snapshot)).toBe(serializeSnapshot(agent.snapshot));
    expect(replay.effects.filter((e) => e.type === 'call_llm')).toHaveLength(3);
    expect(calls).toHaveLength(2);
    expect(model.requests).toHaveLength(3);
  });

  it('reports the first input whose effects differ from the recorded ones', async () => {
    const { journal } = await toolTurn();
    const lines = structuredClone(journal.lines) as JournalLine[];
    const firstReply = lines.find((l) => l.type === 'input' && l.input.type === 'llm.done')!;
    if (firstReply.type !== 'input' || firstReply.input.type !== 'llm.done') throw new Error('unreachable');
    // The model "said" something else: no tool calls this time.
    firstReply.input.message.content = [{ type: 'text', text: 'no tools after all' }];
    firstReply.input.stopReason = 'stop';
    const replay = replayJournal(lines);
    expect(replay.divergence).toMatchObject({ segment: 0, seq: firstReply.seq, inputType: 'llm.done' });
    expect(replay.divergence!.expected).toContain('emit tools.started');
    expect(replay.divergence!.actual).toContain('emit turn.ended');
  });

  it('replays a segment that started on a non-empty session from that session', async () => {
    const store = new MemoryStore();
    const session = createSessionLog(store);
    await createAgent({ model: scriptedModel([{ text: 'one' }]), session }).prompt('before');
    const journal = memoryJournal();
    const agent = createAgent({ model: scriptedModel([{ text: 'two' }]), session, journal });
    await agent.prompt('after');
    expect(journal.lines[0]).toMatchObject({ baseSize: 2 });
    expect(() => replayJournal(journal.lines)).toThrow(/started from entry .*\(a path of 2 entries\).*pass the session/);
    const replay = replayJournal(journal.lines, { session });
    expect(replay.divergence).toBeNull();
    expect(serializeSnapshot(replay.snapshot)).toBe(serializeSnapshot(agent.snapshot));
  });

  it('is written beside a JSONL session file, and parses back with line numbers in errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-journal-'));
    dirs.push(dir);
    const store = await JsonlStore.open(join(dir, 'chat.jsonl'), { create: true });
    const agent = createAgent({ model: scriptedModel([{ text: 'hello' }]), session: createSessionLog(store) });
    await agent.prompt('hi');
    await store.close();
    const text = await readFile(join(dir, 'chat.journal.jsonl'), 'utf8');
    const lines = parseJournalLines(text);
    expect(lines[0]).toMatchObject({ type: 'header', version: JOURNAL_VERSION });
    expect(replayJournal(lines).divergence).toBeNull();
    expect(() => parseJournalLines(`${text}{"type":"input","seq":"x"}\n{}\n`, 'chat.journal.jsonl')).toThrow(/chat\.journal\.jsonl:\d+: not a journal line/);
    // A byte-order mark an editor put in front of the first line is not a torn line.
    expect(parseJournal(`\uFEFF${text}`)).toEqual({ lines, torn: [] });
    // A torn last line (a crash mid-write) is left out, and reported.
    const torn = parseJournal(`${text}{"type":"inp`);
    expect(torn.lines).toHaveLength(lines.length);
    expect(torn.torn).toEqual([{ line: text.split('\n').length, text: '{"type":"inp' }]);
  });

  it('is kept by an agent over a memory session only when one is given', async () => {
    const { echo } = recordingTools();
    const script = () => scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'a' } }] }, { text: 'done' }]);
    const bare = createAgent({ model: script(), tools: [echo] });
    expect(await bare.prompt('hi')).toMatchObject({ status: 'completed' });
    expect(bare.journal).toBeUndefined();

    const journal = memoryJournal();
    const kept = createAgent({ model: script(), tools: [echo], journal });
    await kept.prompt('hi');
    expect(kept.journal).toBe(journal);
    expect(journal.lines.map((l) => l.type)).toContain('tool.finished');
    expect(replayJournal(journal.lines).divergence).toBeNull();
  });

  it('names the model and its window in each segment header, and the time of each tool start and finish', async () => {
    const { echo } = recordingTools();
    const journal = memoryJournal();
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'a' } }] }, { text: 'done' }], { id: 'local/qwen', contextWindow: 32_000 });
    await createAgent({ model, tools: [echo], journal }).prompt('go');
    await createAgent({ model: scriptedModel([{ text: 'again' }]), journal, session: undefined }).prompt('go');
    const headers = journal.lines.filter((l) => l.type === 'header');
    expect(headers.map((h) => h.model)).toEqual([{ id: 'local/qwen', contextWindow: 32_000 }, { id: 'scripted/model', contextWindow: null }]);
    const toolLines = journal.lines.filter((l) => l.type === 'tool.started' || l.type === 'tool.finished');
    expect(toolLines.map((l) => l.type)).toEqual(['tool.started', 'tool.finished']);
    for (const line of toolLines) expect(Date.parse((line as { at: string }).at)).not.toBeNaN();
  });

  it("records the compactor's reserve in the header; a version 3 journal without it still reads and replays", async () => {
    const model = () => scriptedModel([{ text: 'done' }], { id: 'local/qwen', contextWindow: 32_000 });
    const journal = memoryJournal();
    await createAgent({ model: model(), journal, compactor: WindowManager({ strategy: 'keepTail', reserveTokens: 4_000, keepRecentTokens: 2_000 }) }).prompt('go');
    await createAgent({ model: model(), journal }).prompt('go');
    const [managed, plain] = journal.lines.filter((l) => l.type === 'header');
    expect(managed).toMatchObject({ version: JOURNAL_VERSION, model: { contextWindow: 32_000 }, reserveTokens: 4_000 });
    // NoOp never compacts: it keeps no reserve, and the header says none.
    expect(plain).not.toHaveProperty('reserveTokens');

    const older = journal.lines.map((line) => {
      if (line.type !== 'header') return line;
      const { reserveTokens: _, ...rest } = line;
      return rest;
    });
    const parsed = parseJournalLines(`${older.map((l) => JSON.stringify(l)).join('\n')}\n`, 'older.journal.jsonl');
    expect(parsed.filter((l) => l.type === 'header')).toHaveLength(2);
    expect(replayJournal(parsed).divergence).toBeNull();
  });

  it('refuses at configuration a compactor whose reserve is not a whole number of tokens', () => {
    const odd = (reserveFor: () => number) => ({ ...NoOpCompactor, name: 'odd', reserveFor });
    expect(() => createAgent({ model: scriptedModel([]), compactor: odd(() => -1) })).toThrow(
      /^createAgent: compactor "odd": reserveFor must return a whole number of tokens \(0 or more\), got -1$/,
    );
    expect(() => createAgent({ model: scriptedModel([]), compactor: odd(() => { throw new Error('no idea'); }) })).toThrow(/^createAgent: compactor "odd": reserveFor threw: no idea$/);
    // NaN is said as NaN (JSON would say null).
    expect(() => createAgent({ model: scriptedModel([]), compactor: odd(() => Number.NaN) })).toThrow(/^createAgent: compactor "odd": reserveFor must return a whole number of tokens \(0 or more\), got NaN$/);
  });

  it('refuses a journal of another version, naming both versions', async () => {
    const old = JSON.stringify({ type: 'header', format: 'tiller.journal', version: 1, maxIterations: 25, baseLeafId: null, baseSize: 0, createdAt: '2026-01-01T00:00:00.000Z' });
    expect(() => parseJournalLines(`${old}\n`, 'old.journal.jsonl')).toThrow(JournalError);
    expect(() => parseJournalLines(`${old}\n`, 'old.journal.jsonl')).toThrow(/old\.journal\.jsonl:1: the journal is in version 1 of tiller\.journal; this shell reads versions 3 and 4/);
    const dir = await mkdtemp(join(tmpdir(), 'tiller-journal-'));
    dirs.push(dir);
    await writeFile(join(dir, 'old.journal.jsonl'), `${old}\n`);
    const refused = resumeAgent({ model: scriptedModel([]), session: createSessionLog(new MemoryStore()), journal: fileJournal(join(dir, 'old.journal.jsonl')) });
    await expect(refused).rejects.toThrow(/version 1 .*reads versions 3 and 4/);
  });

  it('refuses lines of an older or a newer version handed to replayJournal or resumeAgent without parsing, naming both versions', async () => {
    // A store of its own (a database) hands back the lines it kept: no parseJournal checked them.
    const { journal } = await toolTurn();
    const session = () => createSessionLog(new MemoryStore());
    for (const version of [2, 5]) {
      const lines = journal.lines.map((line) => (line.type === 'header' ? { ...line, version } : line)) as unknown as JournalLine[];
      const message = new RegExp(`^the journal's segment 1 \\(of .*\\) is in version ${version} of tiller\\.journal; this shell reads versions 3 and 4`);
      expect(() => replayJournal(lines)).toThrow(JournalError);
      expect(() => replayJournal(lines, { segments: 'last' })).toThrow(message);
      await expect(resumeAgent({ model: scriptedModel([]), session: session(), journal: memoryJournal(lines) })).rejects.toThrow(new RegExp(`^resumeAgent: the journal: ${message.source.slice(1)}`));
    }
  });

  it('names a version that is not a number as it is written', () => {
    const header = (version: unknown) => `${JSON.stringify({ type: 'header', format: 'tiller.journal', version, maxIterations: 25, baseLeafId: null, baseSize: 0, createdAt: 'x' })}\n`;
    expect(() => parseJournalLines(header('3'), 'odd.journal.jsonl')).toThrow(/^odd\.journal\.jsonl:1: the journal is in version "3" of tiller\.journal; this shell reads versions 3 and 4/);
    expect(() => parseJournalLines(header(undefined), 'odd.journal.jsonl')).toThrow(/^odd\.journal\.jsonl:1: the journal names no version of tiller\.journal in its header; this shell reads versions 3 and 4/);
  });

  it('after a torn last line, starts the next line on its own line, and reports the torn one on resume, naming the journal file and the line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-journal-'));
    dirs.push(dir);
    const path = join(dir, 'chat.journal.jsonl');
    const session = createSessionLog(new MemoryStore());
    await createAgent({ model: scriptedModel([{ text: 'one' }]), session, journal: fileJournal(path) }).prompt('first');
    // A crash cut the next write short.
    await appendFile(path, '{"type":"input","seq":9,"inp');
    const events: AgentEvent[] = [];
    const resumed = await resumeAgent({ model: scriptedModel([{ text: 'two' }]), session, journal: fileJournal(path), listener: (e) => events.push(e) });
    // A read warning, as the session's are: not an error of the shell.
    const torn = JSON.stringify('{"type":"input","seq":9,"inp');
    expect(events).toEqual([
      {
        type: 'journal.warning',
        warning: { kind: 'torn_line', file: path, line: 5, reason: `the line is incomplete (a write was cut off): ${torn}`, message: `${path}:5: the line is incomplete (a write was cut off): ${torn}; skipped` },
        at: expect.any(String),
      },
    ]);
    expect(await resumed.prompt('second')).toMatchObject({ status: 'completed' });
    await resumed.close();
    const text = await readFile(path, 'utf8');
    expect(text.split('\n')[4]).toBe('{"type":"input","seq":9,"inp');
    const parsed = parseJournal(text);
    expect(parsed.torn.map((t) => t.line)).toEqual([5]);
    expect(parsed.lines.filter((l) => l.type === 'header')).toHaveLength(2);
    expect(replayJournal(parsed.lines, { session }).divergence).toBeNull();
    // A listener that throws on that report does not stop the resume (before: resumeAgent threw its error).
    await appendFile(path, '\n{"type":"input","seq":9,"inp');
    const again = await resumeAgent({
      model: scriptedModel([{ text: 'three' }]),
      session,
      journal: fileJournal(path),
      listener: () => {
        throw new Error('the log view is not mounted');
      },
    });
    expect(await again.prompt('third')).toMatchObject({ status: 'completed' });
    await again.close();
  });

  it('reads a torn line that holds the next run\'s header as the torn part, then that run', async () => {
    // The next run was appended by a writer that did not end the torn line first (an older Tiller,
    // another tool): the new header follows the torn bytes on the same line.
    const { journal: first } = await toolTurn();
    const second = memoryJournal();
    await createAgent({ model: scriptedModel([{ text: 'again' }]), journal: second }).prompt('anew');
    const text = (lines: readonly JournalLine[]) => lines.map((l) => JSON.stringify(l)).join('\n');
    const firstLines = first.lines.slice(0, -1);
    const tornPart = JSON.stringify(first.lines.at(-1)).slice(0, 40);
    const parsed = parseJournal(`${text(firstLines)}\n${tornPart}${text(second.lines)}\n`, 'chat.journal.jsonl');
    expect(parsed.torn).toEqual([{ line: firstLines.length + 1, text: tornPart }]);
    expect(parsed.lines).toEqual([...firstLines, ...second.lines]);
    expect(replayJournal(parsed.lines, { segments: 'last' })).toMatchObject({ header: second.lines[0], inputs: second.lines.filter((l) => l.type === 'input').length, divergence: null });
  });

  it('finds a replay that differs in content only, in any segment', async () => {
    const { journal } = await toolTurn();
    const lines = structuredClone(journal.lines) as JournalLine[];
    const results = lines.find((l) => l.type === 'input' && l.input.type === 'tools.done');
    if (results?.type !== 'input' || results.input.type !== 'tools.done') throw new Error('unreachable');
    // Same calls, same ids, same number of entries: only what the tool said differs.
    results.input.results[0]!.content = [{ type: 'text', text: 'something else' }];
    const replay = replayJournal(lines);
    expect(replay.divergence).toMatchObject({ segment: 0, seq: results.seq, inputType: 'tools.done' });
    expect(replay.divergence!.actual).toEqual(replay.divergence!.expected);

    // Two segments: the first one differs, the last one replays cleanly.
    const session = createSessionLog(new MemoryStore());
    const two = memoryJournal();
    await createAgent({ model: scriptedModel([{ text: 'one' }]), session, journal: two }).prompt('first');
    await createAgent({ model: scriptedModel([{ text: 'two' }]), session, journal: two }).prompt('second');
    const edited = structuredClone(two.lines) as JournalLine[];
    const reply = edited.find((l) => l.type === 'input' && l.input.type === 'llm.done');
    if (reply?.type !== 'input' || reply.input.type !== 'llm.done') throw new Error('unreachable');
    reply.input.message.content = [{ type: 'text', text: 'uno' }];
    expect(replayJournal(two.lines, { session }).divergence).toBeNull();
    expect(replayJournal(edited, { session })).toMatchObject({ segments: 2, divergence: { segment: 0, inputType: 'llm.done' } });
    expect(replayJournal(edited, { session, segments: 'last' }).divergence).toBeNull();
  });

  it('keeps each tool output once in the file, and reads it back whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-journal-'));
    dirs.push(dir);
    const path = join(dir, 'chat.journal.jsonl');
    const big = defineTool({ name: 'big', description: 'a distinctive output', input: z.object({}), execute: () => 'zebra-output '.repeat(50) });
    const agent = createAgent({ model: scriptedModel([{ toolCalls: [{ name: 'big' }, { name: 'big' }] }, { text: 'done' }]), tools: [big], journal: fileJournal(path) });
    await agent.prompt('go');
    await agent.close();
    const text = await readFile(path, 'utf8');
    expect(text.split('zebra-output '.repeat(50))).toHaveLength(3);
    const lines = parseJournalLines(text);
    const done = lines.find((l) => l.type === 'input' && l.input.type === 'tools.done');
    expect(done?.type === 'input' && done.input.type === 'tools.done' && done.input.results.map((r) => r.content)).toEqual([
      [{ type: 'text', text: 'zebra-output '.repeat(50) }],
      [{ type: 'text', text: 'zebra-output '.repeat(50) }],
    ]);
    expect(replayJournal(lines).divergence).toBeNull();
  });
});
