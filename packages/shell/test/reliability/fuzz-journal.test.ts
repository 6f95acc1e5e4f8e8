import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from '@tiller/core';
import { createSessionLog, MemoryStore } from '@tiller/session';
import { scriptedModel } from '@tiller/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, fileJournal, JournalError, parseJournal, replayJournal, resumeAgent, ShellError } from '../../src/index.js';
import { recordingTools } from '../helpers.js';

/**
 * Damaged journals, the ways files get damaged: cut anywhere, two journals spliced, bytes flipped,
 * lines repeated, dropped or swapped, headers of other versions, lines that are JSON but not
 * journal lines, plain random bytes. Whatever the file holds, reading, replaying and resuming it
 * end in a result or a `JournalError` (a `ShellError`) that names the file and line; never another
 * error, a hang, or a write to a session that was refused.
 */
const SEED = 20_261_211;
const FILE = 'fuzz.journal.jsonl';
let dir: string;
let valid: { text: string; entries: Entry[] };
let other: { text: string; entries: Entry[] };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-fuzz-journal-'));
  valid = await recordJournal('a');
  other = await recordJournal('b');
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A journal worth damaging: two segments (two agents over one session), tool batches, a parked
 * approval that was allowed, and a turn the crash left running (its model call never answered).
 */
async function recordJournal(name: string): Promise<{ text: string; entries: Entry[] }> {
  const path = join(dir, `${name}.journal.jsonl`);
  const session = createSessionLog(new MemoryStore());
  const { echo } = recordingTools();
  const first = createAgent({
    model: scriptedModel([{ toolCalls: [{ id: `${name}1`, name: 'echo', args: { text: 'one' } }, { id: `${name}2`, name: 'echo', args: { text: 'two ✓' } }] }, { text: 'both echoed' }]),
    tools: [echo],
    session,
    journal: fileJournal(path),
  });
  await first.prompt('echo twice');
  await first.close();
  const second = createAgent({
    model: scriptedModel([{ toolCalls: [{ id: `${name}3`, name: 'echo', args: { text: 'asked' } }] }, { text: 'done' }, { text: 'never', delayMs: Infinity }]),
    tools: [echo],
    policy: () => ({ decision: 'ask' }),
    session,
    journal: fileJournal(path),
  });
  const asked = new Promise<void>((resolve) => second.subscribe((e) => e.type === 'approval.requested' && resolve()));
  const turn = second.prompt('echo once, with leave');
  await asked;
  second.approve({ toolCallId: `${name}3`, decision: 'allow' });
  await turn;
  void second.prompt('and hang');
  await new Promise<void>((resolve) => second.subscribe((e) => e.type === 'llm.started' && resolve()));
  const text = await readFile(path, 'utf8');
  const entries = structuredClone([...session.entries()]);
  await second.close();
  return { text, entries };
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');
const unlines = (ls: readonly string[]) => (ls.length === 0 ? '' : `${ls.join('\n')}\n`);

/** One way a file gets damaged, applied to its text. */
type Damage = (text: string) => string;
const damage: fc.Arbitrary<Damage> = fc.oneof(
  // Cut at any byte (mid-character too).
  fc.double({ min: 0, max: 1, noNaN: true }).map((at) => (text: string) => {
    const bytes = Buffer.from(text);
    return bytes.subarray(0, Math.floor(at * bytes.length)).toString('utf8');
  }),
  // Another journal's lines spliced in.
  fc.tuple(fc.nat(), fc.nat()).map(([i, j]) => (text: string) => {
    const mine = lines(text);
    const theirs = lines(other.text);
    return unlines([...mine.slice(0, i % (mine.length + 1)), ...theirs.slice(j % (theirs.length + 1))]);
  }),
  // Bytes flipped.
  fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }).map((flips) => (text: string) => {
    const bytes = Buffer.from(text);
    if (bytes.length === 0) return text;
    for (const [at, mask] of flips) bytes[at % bytes.length]! ^= mask;
    return bytes.toString('utf8');
  }),
  // A line repeated elsewhere, dropped, or two lines swapped.
  fc.tuple(fc.constantFrom('repeat', 'drop', 'swap'), fc.nat(), fc.nat()).map(([how, i, j]) => (text: string) => {
    const ls = lines(text);
    if (ls.length === 0) return text;
    const a = i % ls.length;
    const b = j % ls.length;
    if (how === 'repeat') ls.splice(b, 0, ls[a]!);
    else if (how === 'drop') ls.splice(a, 1);
    else [ls[a], ls[b]] = [ls[b]!, ls[a]!];
    return unlines(ls);
  }),
  // Headers of another version or format.
  fc.constantFrom<unknown>(1, 2, 3, 5, '4', null, 4.5).map((version) => (text: string) => text.replace(/"version":4/g, `"version":${JSON.stringify(version)}`)),
  // A field of a line set to any JSON value (a line that parses, but is not what it was), or to
  // one that trips naive readers: an object whose toString is no function, a name every object inherits.
  fc.tuple(fc.nat(), fc.nat(), fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom<unknown>({ toString: 1 }, { valueOf: 1, toString: 1 }, 'constructor', '__proto__', 'toString', 1e308))).map(([i, k, value]) => (text: string) => {
    const ls = lines(text);
    if (ls.length === 0) return text;
    const at = i % ls.length;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(ls[at]!) as Record<string, unknown>;
    } catch {
      return text;
    }
    const keys = Object.keys(line);
    const input = line.input as Record<string, unknown> | undefined;
    // Half the time a field of the recorded input, where the turn's data lives.
    if (input && typeof input === 'object' && k % 2 === 0) input[Object.keys(input)[k % Object.keys(input).length]!] = value;
    else line[keys[k % keys.length]!] = value;
    ls[at] = JSON.stringify(line);
    return unlines(ls);
  }),
  // A line of random bytes.
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 60 })).map(([i, junk]) => (text: string) => {
    const ls = lines(text);
    ls.splice(i % (ls.length + 1), 0, Buffer.from(junk).toString('utf8').replace(/\n/g, ' '));
    return unlines(ls);
  }),
);

/** A valid journal with one to three kinds of damage, or nothing but random bytes. */
const damagedJournal = fc.oneof(
  { weight: 9, arbitrary: fc.array(damage, { minLength: 1, maxLength: 3 }).map((ds) => () => ds.reduce((text, d) => d(text), valid.text)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 400 }).map((bytes) => () => Buffer.from(bytes).toString('utf8')) },
);

/** Runs `work`; it may fail only with a `ShellError` whose message names `where` with a line (`file:N`) when `line` is asked. */
async function failsCleanly<T>(work: () => Promise<T> | T, where?: { file: string; line: boolean }): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (!ShellError.isInstance(error)) throw new Error(`not a ShellError: ${String(error)}`, { cause: error });
    const named = where && (where.line ? error.message.includes(`${where.file}:`) && new RegExp(`${where.file.replace(/\./g, '\\.')}:\\d+`).test(error.message) : error.message.includes(where.file));
    if (where && !named) throw new Error(`"${error.message}" does not name ${where.file}${where.line ? ' and a line' : ''}`);
    return undefined;
  }
}

describe('fuzzing journals', () => {
  it('parseJournal and replayJournal: a result, or a JournalError naming the file and line', async () => {
    await fc.assert(
      fc.asyncProperty(damagedJournal, async (make) => {
        const text = make();
        const parsed = await failsCleanly(() => parseJournal(text, FILE), { file: FILE, line: true });
        if (!parsed) return;
        // Every torn line is one of the file's lines, each reported once.
        const count = text.split('\n').length;
        for (const { line } of parsed.torn) expect(line).toBeGreaterThanOrEqual(1), expect(line).toBeLessThanOrEqual(count);
        if (parsed.lines.length === 0) return;
        const session = createSessionLog(new MemoryStore(structuredClone(valid.entries)));
        await failsCleanly(() => replayJournal(parsed.lines, { session }));
        await failsCleanly(() => replayJournal(parsed.lines, { session, segments: 'last' }));
      }),
      { seed: SEED, numRuns: 300 },
    );
  }, 60_000);

  it('resumeAgent: resumes and the turn settles, or refuses with a ShellError and writes nothing', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(damagedJournal, fc.nat(), async (make, keep) => {
        const path = join(dir, `resume-${n++}.journal.jsonl`);
        const text = make();
        await writeFile(path, text);
        // The session as the crash left it, or behind it (a lost tail of the session file).
        const entries = structuredClone(valid.entries).slice(0, valid.entries.length - (keep % 3));
        const session = createSessionLog(new MemoryStore(entries));
        const { echo } = recordingTools();
        const model = scriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
        const agent = await failsCleanly(() => resumeAgent({ model, tools: [echo], session, journal: fileJournal(path), limits: { maxRetries: 0 } }), { file: path, line: false });
        if (!agent) {
          expect(session.size, 'a refused resume writes nothing to the session').toBe(entries.length);
          expect(await readFile(path, 'utf8'), 'nor to the journal').toBe(text);
          return;
        }
        for (const call of agent.pendingApprovals()) agent.approve({ toolCallId: call.id, decision: 'allow' });
        const settled = await Promise.race([
          agent.idle().then(
            () => 'settled',
            (error: unknown) => (ShellError.isInstance(error) ? 'settled' : `not a ShellError: ${String(error)}`),
          ),
          new Promise((resolve) => setTimeout(() => resolve('the resumed turn hangs'), 5_000)),
        ]);
        expect(settled).toBe('settled');
        await agent.close();
      }),
      { seed: SEED, numRuns: 200 },
    );
  }, 120_000);

  it('the journal it damages is a valid one: it parses, replays identically, and resumes its open turn', async () => {
    const parsed = parseJournal(valid.text, FILE);
    expect(parsed.torn).toEqual([]);
    const session = createSessionLog(new MemoryStore(structuredClone(valid.entries)));
    expect(replayJournal(parsed.lines, { session })).toMatchObject({ segments: 2, divergence: null });
    const path = join(dir, 'intact.journal.jsonl');
    await writeFile(path, valid.text);
    const model = scriptedModel([{ text: 'answered at last' }]);
    const agent = await resumeAgent({ model, session, journal: fileJournal(path) });
    expect(await agent.idle()).toMatchObject({ status: 'completed' });
    expect(model.requests).toHaveLength(1);
    await agent.close();
  });
});

describe('what fuzzing journals found', () => {
  it('a journal of another session (its base entry is not in this one) is a JournalError naming the journal, not a crash of the session log', async () => {
    const path = join(dir, 'other-session.journal.jsonl');
    await writeFile(path, other.text);
    const session = createSessionLog(new MemoryStore(structuredClone(valid.entries)));
    const refused = /segment of .* started from entry ".*", which the session given does not have/;
    expect(() => replayJournal(parseJournal(other.text).lines, { session })).toThrow(JournalError);
    expect(() => replayJournal(parseJournal(other.text).lines, { session })).toThrow(refused);
    const resumed = resumeAgent({ model: scriptedModel([]), session, journal: fileJournal(path) });
    await expect(resumed).rejects.toThrow(JournalError);
    await expect(resumed).rejects.toThrow(new RegExp(`resumeAgent: ${path}: the journal's segment`));
    expect(session.size).toBe(valid.entries.length);
  });

  it('an id that is an object JSON cannot turn into a string ({"toString": 1}) is a JournalError naming the line, not a TypeError', () => {
    // Where parseJournal pairs a `tool.finished` line with the `tools.done` input that names its
    // result as recorded: the batch id and the call id of the one, the input's id of the other.
    const odd = { toString: 1 };
    const spoil = (type: string, set: (line: Record<string, any>) => void) => {
      const ls = lines(valid.text);
      const at = ls.findIndex((l) => JSON.parse(l).type === type || JSON.parse(l).input?.type === type);
      const line = JSON.parse(ls[at]!) as Record<string, any>;
      set(line);
      ls[at] = JSON.stringify(line);
      return { text: unlines(ls), line: at + 1 };
    };
    for (const { text, line } of [
      spoil('tool.finished', (l) => (l.batchId = odd)),
      spoil('tool.finished', (l) => (l.toolCallId = odd)),
      spoil('tools.done', (l) => (l.input.id = odd)),
    ]) {
      expect(() => parseJournal(text, FILE)).toThrow(JournalError);
      expect(() => parseJournal(text, FILE)).toThrow(new RegExp(`^${FILE}:${line}: `));
    }
  });

  it('a tool call whose args nest deeper than JSON.stringify can go is a JournalError naming the input, not a stack overflow', async () => {
    // JSON.parse reads 20,000 levels; JSON.stringify, which the replay's hash and every writer use,
    // overflows the stack thousands of levels sooner: no Tiller writer made this line.
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const text = valid.text.replace(/"args":\{"text":"one"\}/, `"args":{"text":${deep}}`);
    expect(text).not.toBe(valid.text);
    const session = () => createSessionLog(new MemoryStore(structuredClone(valid.entries)));
    const { lines: parsed } = parseJournal(text, FILE);
    const refused = /segment 1 \(of .*\): input 2 \(llm\.done\) cannot be replayed: it nests too deep \(Maximum call stack size exceeded\)/;
    expect(() => replayJournal(parsed, { session: session() })).toThrow(JournalError);
    expect(() => replayJournal(parsed, { session: session() })).toThrow(refused);
    const path = join(dir, 'deep.journal.jsonl');
    await writeFile(path, text.replace(/"args":\{"text":"asked"\}/, `"args":{"text":${deep}}`));
    const resumed = resumeAgent({ model: scriptedModel([]), session: session(), journal: fileJournal(path) });
    await expect(resumed).rejects.toThrow(JournalError);
    await expect(resumed).rejects.toThrow(new RegExp(`resumeAgent: ${path}: the journal's segment 2 \\(of .*\\): input 2 \\(llm\\.done\\) cannot be replayed`));
  });

  it('a journal whose first line is not a header names that line', () => {
    const [, ...rest] = lines(valid.text);
    expect(() => parseJournal(unlines(['', ...rest]), FILE)).toThrow(new RegExp(`${FILE}:2: a journal starts with a header line; its first line is a "input" line`));
  });
});
