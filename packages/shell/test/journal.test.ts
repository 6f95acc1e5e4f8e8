import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeSnapshot } from '@tiller/core';
import { createSessionLog, JsonlStore, MemoryStore } from '@tiller/session';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, JOURNAL_VERSION, memoryJournal, parseJournalLines, replayJournal, type JournalLine } from '../src/index.js';
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
    expect(replay.divergence).toMatchObject({ seq: firstReply.seq, inputType: 'llm.done' });
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
    // A torn last line (a crash mid-write) is dropped, not an error.
    expect(parseJournalLines(`${text}{"type":"inp`)).toHaveLength(lines.length);
  });
});
