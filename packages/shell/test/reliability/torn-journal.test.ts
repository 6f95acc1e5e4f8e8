import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from '@tiller/core';
import { createSessionLog, MemoryStore } from '@tiller/session';
import { scriptedModel, seededRandom, unansweredCalls } from '@tiller/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, createAgent, defineTool, fileJournal, type JournalStore, parseJournal, replayJournal, resumeAgent } from '../../src/index.js';

/**
 * A crash cuts the journal's line that records a large tool output, at a byte offset. Node writes
 * a string over 512 KiB in pieces, so a line that long can be cut anywhere, mid-character too.
 */
const PIECE = 512 * 1024;
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Text of `length` characters: mostly ASCII, with two- to four-byte characters every so often. */
function output(length: number): string {
  const wide = ['é', '漢', '🙂'];
  let text = '';
  for (let i = 0; text.length < length; i++) text += `line ${i} of the output ${wide[i % 3]} `;
  return text.slice(0, length);
}

interface Recorded {
  dir: string;
  bytes: Buffer;
  /** The torn line's bytes are [start, end) (its line break at `end`); it is line `lineNo` (1-based). */
  start: number;
  end: number;
  lineNo: number;
  /** The session as it was when the torn line's write began: the journal is written ahead of it. */
  sessionAtTear: Entry[];
}

/**
 * Runs a turn that calls `note` (small) and then `dump` (a large output) one after the other, and
 * records the journal file and, for each journal line, how far the session had got.
 */
async function record(outputChars: number): Promise<Recorded> {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-torn-'));
  dirs.push(dir);
  const path = join(dir, 'chat.journal.jsonl');
  const session = createSessionLog(new MemoryStore());
  const file = fileJournal(path);
  const sizes: number[] = [];
  const journal: JournalStore = { append: (line) => (sizes.push(session.size), file.append(line)), read: () => file.read(), close: () => file.close() };
  const runs: string[] = [];
  const agent = createAgent({
    model: scriptedModel([{ toolCalls: [{ id: 'n1', name: 'note', args: {} }, { id: 'd1', name: 'dump', args: {} }] }, { text: 'done' }]),
    tools: tools(runs),
    session,
    journal,
    limits: { maxToolConcurrency: 1, maxToolOutputChars: 2_000_000 },
  });
  expect(await agent.prompt('dump it')).toMatchObject({ status: 'completed' });
  await agent.close();
  const bytes = await readFile(path);
  const lines = bytes.toString('utf8').split('\n');
  const index = lines.findIndex((l) => l.includes('"tool.finished"') && l.includes('"d1"'));
  const start = Buffer.byteLength(lines.slice(0, index).map((l) => `${l}\n`).join(''));
  const end = start + Buffer.byteLength(lines[index]!);
  expect(end - start).toBeGreaterThan(outputChars);
  return { dir, bytes, start, end, lineNo: index + 1, sessionAtTear: structuredClone(session.entries().slice(0, sizes[index])) };
}

function tools(runs: string[]) {
  return [
    defineTool({ name: 'note', description: 'Takes a note.', input: z.object({}), execute: (_a, { toolCallId }) => (runs.push(toolCallId), 'noted') }),
    defineTool({ name: 'dump', description: 'Dumps a lot.', input: z.object({}), execute: async (_a, { toolCallId }) => (runs.push(toolCallId), big) }),
  ];
}
let big = '';

/** What is wrong with parseJournal over the file cut at `cut` (the lines before the torn one load, the torn one is reported), if anything. */
function cutProblem(r: Recorded, cut: number, before: string): string | undefined {
  const text = before + r.bytes.subarray(r.start, cut).toString('utf8');
  let parsed;
  try {
    parsed = parseJournal(text, 'chat.journal.jsonl');
  } catch (error) {
    return `cut at byte ${cut}: ${String(error)}`;
  }
  const whole = cut === r.end;
  const lines = r.lineNo - (whole ? 0 : 1);
  const torn = cut === r.start || whole ? [] : [r.lineNo];
  if (parsed.lines.length !== lines) return `cut at byte ${cut}: ${parsed.lines.length} lines, expected ${lines}`;
  if (parsed.torn.map((t) => t.line).join() !== torn.join()) return `cut at byte ${cut}: torn ${JSON.stringify(parsed.torn)}, expected line ${torn.join()}`;
  return undefined;
}

describe.each([
  { name: 'an 8 KiB tool output, cut at every byte of its line', chars: 8 * 1024, every: true },
  { name: 'a 600 KiB tool output (beyond the 512 KiB Node writes at once)', chars: 600 * 1024, every: false },
])('a journal line torn by a crash: $name', ({ chars, every }) => {
  let r: Recorded;
  let before: string;
  beforeAll(async () => {
    big = output(chars);
    r = await record(chars);
    before = r.bytes.subarray(0, r.start).toString('utf8');
  }, 60_000);

  it('every cut loads the lines before it and reports the torn line', () => {
    const { start, end } = r;
    // Every byte of a small line. Of the large one (a cut there costs a parse of up to 600 KiB) every
    // byte of its head and tail (all of the line's structure), around the 512 KiB piece boundary
    // (where Node's second write begins), and every 2003rd byte between.
    const cuts = new Set<number>();
    for (let cut = start; cut <= end; cut++) {
      const at = cut - start;
      if (every || at < 512 || end - cut < 256 || Math.abs(at - PIECE) < 64 || at % 2003 === 0) cuts.add(cut);
    }
    const problems = [...cuts].flatMap((cut) => cutProblem(r, cut, before) ?? []);
    expect(problems.slice(0, 5)).toEqual([]);
    expect(cuts.size).toBeGreaterThan(every ? chars : 1_000);
  }, 60_000);

  it('a resume after a cut neither re-runs finished work nor collides on ids, and the next turn runs too', async () => {
    const random = seededRandom(chars);
    const cuts = [r.start + 1, r.start + PIECE, r.end - 1, r.end, ...Array.from({ length: 5 }, () => random.int(r.start + 1, r.end - 1))].filter((c) => c <= r.end);
    for (const cut of cuts) {
      const path = join(r.dir, `cut-${cut}.journal.jsonl`);
      await writeFile(path, r.bytes.subarray(0, cut));
      const session = createSessionLog(new MemoryStore(structuredClone(r.sessionAtTear)));
      const runs: string[] = [];
      const events: AgentEvent[] = [];
      const model = scriptedModel([{ text: 'recovered' }, { text: 'next' }]);
      const resumed = await resumeAgent({ model, tools: tools(runs), session, journal: fileJournal(path), listener: (e) => events.push(e), limits: { maxToolOutputChars: 2_000_000 } });
      expect(await resumed.idle(), `cut at byte ${cut}`).toMatchObject({ status: 'completed' });
      const torn = cut < r.end;
      // A torn line is a read warning naming its line; nothing else goes wrong.
      expect(events.flatMap((e) => (e.type === 'journal.warning' ? [[e.warning.kind, e.warning.line]] : []))).toEqual(torn ? [['torn_line', r.lineNo]] : []);
      expect(events.filter((e) => e.type === 'shell.error')).toEqual([]);
      // `note` finished before the crash; `dump` ran, and its finish is the torn line: interrupted, not run again.
      expect(runs, `cut at byte ${cut}`).toEqual([]);
      const results = model.requests[0]!.messages.filter((m) => m.role === 'toolResult');
      expect(results.map((m) => [m.toolCallId, m.isError])).toEqual([['n1', false], ['d1', torn]]);
      if (torn) expect(results[1]).toMatchObject({ content: [{ text: expect.stringMatching(/was interrupted/) }] });
      else expect((results[1]!.content[0] as { text: string }).text).toBe(big);
      expect(await resumed.prompt('and now?')).toMatchObject({ status: 'completed' });
      await resumed.close();

      const ids = session.entries().map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(unansweredCalls(session.path().flatMap((e) => (e.kind === 'message' ? [e.message] : [])))).toEqual([]);
      const after = parseJournal(await readFile(path, 'utf8'), path);
      expect(after.torn.map((t) => t.line)).toEqual(torn ? [r.lineNo] : []);
      expect(replayJournal(after.lines, { session }).divergence).toBeNull();
    }
  }, 60_000);
});
