import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Entry, Message } from '@tiller/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createSessionLog,
  exportPiSession,
  importPiSession,
  JsonlStore,
  MemoryStore,
  resumeContext,
  SessionError,
  upgradeSessionFile,
} from '../../src/index.js';
import { serializeEntry } from '../../src/jsonl/format.js';
import { assistantEntry, AT, compactionEntry, userEntry } from '../entries.js';
import { useTempDir } from '../temp-dir.js';

const SEED = 20_261_201;
const tempDir = useTempDir('tiller-fuzz-');
let n = 0;
const freshFile = () => join(tempDir(), `f${n++}.jsonl`);

/** Every tool call answered once, right after its message (a batch open at the very end allowed), no result without its call. */
function transcriptProblem(messages: readonly Message[]): string | undefined {
  let open: string[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'toolResult') {
      if (!open?.includes(m.toolCallId)) return `message ${i}: a result for ${m.toolCallId}, which no open call has`;
      open = open.filter((id) => id !== m.toolCallId);
      continue;
    }
    if (open && open.length > 0) return `message ${i}: calls ${open.join(', ')} have no result`;
    open = m.role === 'assistant' ? m.content.flatMap((p) => (p.type === 'toolCall' ? [p.id] : [])) : undefined;
    if (open && new Set(open).size !== open.length) return `message ${i}: a call id repeats`;
  }
  return undefined;
}

/** Runs `work`; it may fail only with an error of @tiller/session that names one of `where` (the function, or the file). */
async function failsCleanly<T>(where: string | string[], work: () => Promise<T> | T): Promise<T | undefined> {
  try {
    return await work();
  } catch (error) {
    if (!SessionError.isInstance(error)) throw new Error(`not a SessionError: ${String(error)}`, { cause: error });
    const places = [where].flat();
    if (!places.some((place) => error.message.includes(place))) throw new Error(`"${error.message}" names none of ${places.join(', ')}`);
    return undefined;
  }
}

// A session worth damaging: user turns, tool calls and their results, a compaction.
const call = (id: string, parentId: string): Entry => ({
  id,
  parentId,
  at: AT,
  kind: 'message',
  message: { role: 'assistant', content: [{ type: 'toolCall', id: `call-${id}`, name: 'read', args: { path: id } }], stopReason: 'toolUse' },
});
const answer = (id: string, parentId: string, callOf: string): Entry => ({
  id,
  parentId,
  at: AT,
  kind: 'message',
  message: { role: 'toolResult', toolCallId: `call-${callOf}`, toolName: 'read', content: [{ type: 'text', text: `file ${callOf} ✓` }], isError: false },
});
function session(): Entry[] {
  const entries: Entry[] = [userEntry('u0', null)];
  for (let i = 0; i < 6; i++) {
    const parent = entries.at(-1)!.id;
    entries.push(call(`a${i}`, parent), answer(`r${i}`, `a${i}`, `a${i}`), assistantEntry(`t${i}`, `r${i}`), userEntry(`u${i + 1}`, `t${i}`));
    if (i === 3) entries.push(compactionEntry(`c${i}`, `u${i + 1}`, `a${i - 1}`));
  }
  return entries;
}
const header = (version: unknown = 2) => JSON.stringify({ type: 'tiller.session', version, id: 'fuzz', createdAt: AT });
const cleanLines = () => [header(), ...session().map(serializeEntry)];

type Damage =
  | { kind: 'truncate'; at: number }
  | { kind: 'junk'; line: number; text: string }
  | { kind: 'drop'; line: number }
  | { kind: 'repeat'; line: number }
  | { kind: 'swap'; a: number; b: number }
  | { kind: 'flip'; at: number; byte: number }
  | { kind: 'version'; version: unknown }
  // A line the schema refuses whose id and parent still read (a role no message has).
  | { kind: 'spoil'; line: number }
  // A line cut short in the middle of the file (a write cut off, and later lines written after it).
  | { kind: 'shorten'; line: number; keep: number }
  // One value anywhere in a line replaced by one that trips naive readers (an object with a
  // toString that is no function, a name every object inherits, null, a list, a huge number).
  | { kind: 'poison'; line: number; at: number; value: number };

const damageArb: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('junk' as const), line: fc.nat(), text: fc.oneof(fc.string(), fc.json(), fc.constant('{"kind":"message","id":"u0","parentId":null}')) }),
  fc.record({ kind: fc.constant('drop' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('version' as const), version: fc.oneof(fc.integer({ min: -1, max: 4 }), fc.constant('2'), fc.constant(null)) }),
  fc.record({ kind: fc.constant('spoil' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('shorten' as const), line: fc.nat(), keep: fc.nat() }),
  fc.record({ kind: fc.constant('poison' as const), line: fc.nat(), at: fc.nat(), value: fc.nat() }),
);

const POISONS: unknown[] = [{ toString: 1 }, { valueOf: 1, toString: 1 }, 'constructor', '__proto__', 'toString', null, [], [null], 1e308, -1, ''];

/** `line` (JSON) with the value at its `at`-th place (depth first) replaced by `POISONS[value]`; other text is left as it is. */
function poisoned(line: string, at: number, value: number): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return line;
  }
  const places: { holder: Record<string, unknown>; key: string }[] = [];
  const visit = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    for (const key of Object.keys(node)) {
      places.push({ holder: node as Record<string, unknown>, key });
      visit((node as Record<string, unknown>)[key]);
    }
  };
  visit(parsed);
  if (places.length === 0) return line;
  const place = places[at % places.length]!;
  place.holder[place.key] = POISONS[value % POISONS.length];
  return JSON.stringify(parsed);
}

function damage(lines: string[], damages: readonly Damage[]): Buffer {
  const out = [...lines];
  let cut: number | undefined;
  const flips: { at: number; byte: number }[] = [];
  for (const d of damages) {
    const at = (i: number) => i % out.length;
    switch (d.kind) {
      case 'junk':
        out.splice(at(d.line), 1, d.text.replaceAll('\n', ' '));
        break;
      case 'drop':
        if (out.length > 1) out.splice(at(d.line), 1);
        break;
      case 'repeat':
        out.splice(at(d.line), 0, out[at(d.line)]!);
        break;
      case 'swap': {
        const [a, b] = [at(d.a), at(d.b)];
        [out[a], out[b]] = [out[b]!, out[a]!];
        break;
      }
      case 'version':
        out[0] = header(d.version);
        break;
      case 'truncate':
        cut = d.at;
        break;
      case 'flip':
        flips.push(d);
        break;
      case 'spoil':
        out[at(d.line)] = out[at(d.line)]!.replace(/"role":"\w+"/, '"role":"robot"').replace(/"summary":"/, '"summary":5,"x":"');
        break;
      case 'poison':
        out[at(d.line)] = poisoned(out[at(d.line)]!, d.at, d.value);
        break;
      case 'shorten': {
        const line = out[at(d.line)]!;
        out[at(d.line)] = line.slice(0, d.keep % (line.length + 1));
        break;
      }
      default: {
        const unknownDamage: never = d;
        throw new Error(`unknown damage ${JSON.stringify(unknownDamage)}`);
      }
    }
  }
  let bytes = Buffer.from(`${out.join('\n')}\n`);
  for (const flip of flips) bytes[flip.at % bytes.length] = flip.byte;
  if (cut !== undefined) bytes = bytes.subarray(0, cut % (bytes.length + 1));
  return bytes;
}

describe('fuzzing session files: random bytes, cuts, corrupt lines, repeated lines, wrong versions', () => {
  it('every open loads or fails with a SessionError naming the file; a resume agrees with a full open; the context is a valid transcript', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.array(damageArb, { minLength: 1, maxLength: 5 }).map((d) => damage(cleanLines(), d)), fc.uint8Array({ maxLength: 300 }).map(Buffer.from)), async (bytes) => {
        const file = freshFile();
        await writeFile(file, bytes);
        const store = await failsCleanly(file, () => JsonlStore.open(file, { readOnly: true }));
        const resumed = await failsCleanly(file, () => resumeContext(file));
        expect(resumed === undefined).toBe(store === undefined);
        if (!store || !resumed) return;
        for (const warning of store.warnings) expect(warning.message.startsWith(`${file}:${warning.line}`)).toBe(true);
        const log = createSessionLog(store);
        expect(transcriptProblem(log.context())).toBeUndefined();
        expect(resumed.leafId).toBe(log.leafId);
        expect(resumed.context).toEqual(log.context());
        // Every entry the log holds is on a finite path back to a root.
        for (const entry of log.entries()) expect(log.path(entry.id).at(-1)).toBe(entry);
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 120_000);

  it('a writer on a damaged file appends whole lines: the next open has what it had plus the new entry', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(damageArb, { minLength: 1, maxLength: 4 }), async (damages) => {
        const file = freshFile();
        await writeFile(file, damage(cleanLines(), damages));
        const store = await failsCleanly(file, () => JsonlStore.open(file));
        if (!store) return;
        const log = createSessionLog(store);
        const before = log.entries().map((e) => e.id);
        await log.append([userEntry('appended', log.leafId)]);
        await log.close();
        const again = await JsonlStore.open(file, { readOnly: true });
        expect(again.entries.map((e) => e.id)).toEqual([...before, 'appended']);
        expect(again.warnings.filter((w) => w.kind === 'torn_line')).toEqual([]);
      }),
      { seed: SEED, numRuns: 60 },
    );
  }, 120_000);
});

/** Values an options object or one of its fields might hold by mistake. */
const junk = fc.oneof(fc.anything({ maxDepth: 2 }), fc.constantFrom('', 'no', 'yes', 0, -1, Number.NaN, null, true, false, [], {}));
/** An options object with the real keys (some of them), each right or wrong, and now and then a key that does not exist. */
const optionsArb = (valid: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(
    junk,
    fc.record(Object.fromEntries(Object.entries(valid).map(([key, arb]) => [key, fc.oneof(arb, junk)])), { requiredKeys: [] }),
    fc.record({ ...Object.fromEntries(Object.entries(valid).map(([key, arb]) => [key, arb])), typo: junk }, { requiredKeys: ['typo'] }),
  );

describe('fuzzing the options of every public function that takes options', () => {
  it('JsonlStore.open: opens, or fails with a SessionError naming the function and the option, and writes nothing then', async () => {
    const createArb = fc.oneof(fc.boolean(), fc.record({ id: fc.string(), createdAt: fc.string() }, { requiredKeys: [] }));
    const arb = optionsArb({
      fsync: fc.constantFrom('always', 'batch', 'never'),
      batchIntervalMs: fc.nat(1000),
      strict: fc.boolean(),
      readOnly: fc.boolean(),
      create: createArb,
    });
    await fc.assert(
      fc.asyncProperty(arb, async (options) => {
        const dir = join(tempDir(), `o${n++}`);
        await import('node:fs/promises').then((fs) => fs.mkdir(dir));
        const file = join(dir, 'session.jsonl');
        const store = await failsCleanly(['JsonlStore.open', file], () => JsonlStore.open(file, options as never));
        if (!store) {
          // A refusal leaves nothing behind: no session file, no lock, no temporary file.
          expect(await readdir(dir)).toEqual([]);
          return;
        }
        await store.close();
        // What it created, any later open reads.
        const again = await JsonlStore.open(file, { readOnly: true, strict: true });
        expect(again.header.id).not.toBe('');
        expect(await readdir(dir)).toEqual(['session.jsonl']);
      }),
      { seed: SEED, numRuns: 200 },
    );
  }, 60_000);

  it('resumeContext, upgradeSessionFile, importPiSession, exportPiSession, createSessionLog, setLabel, setSessionName', async () => {
    const file = freshFile();
    await writeFile(file, `${cleanLines().join('\n')}\n`);
    const text = await readFile(file, 'utf8');
    const piText = exportPiSession(session());
    await fc.assert(
      fc.asyncProperty(junk, optionsArb({ source: fc.string() }), optionsArb({ id: fc.string(), at: fc.string() }), async (value, piOptions, entryOptions) => {
        // A string is a path: kept inside the temporary folder, so no case writes elsewhere.
        const path = typeof value === 'string' ? join(tempDir(), `u${n++}-${encodeURIComponent(value).slice(0, 40)}.jsonl`) : value;
        await failsCleanly(['resumeContext', tempDir()], () => resumeContext(path as never));
        await failsCleanly(['upgradeSessionFile', tempDir()], () => upgradeSessionFile(file, path as never));
        expect(await readFile(file, 'utf8')).toBe(text);
        await failsCleanly(['importPiSession', 'pi session'], () => importPiSession(piText, piOptions as never));
        await failsCleanly(['importPiSession', 'pi session'], () => importPiSession(value as never));
        await failsCleanly('exportPiSession', () => exportPiSession(session(), { header: value } as never));
        await failsCleanly('exportPiSession', () => exportPiSession(value as never));
        await failsCleanly('createSessionLog', () => createSessionLog(value as never));
        const log = createSessionLog(new MemoryStore(session()));
        const size = log.size;
        const labelled = await failsCleanly('setLabel', () => log.setLabel('u0', value as never, entryOptions as never));
        // The same id as the label's entry: refused as a repeat, by AppendError.
        const named = await failsCleanly(['setSessionName', 'already in the session'], () => log.setSessionName(value as never, entryOptions as never));
        // A refused call appends nothing.
        expect(log.size).toBe(size + (labelled ? 1 : 0) + (named ? 1 : 0));
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 60_000);
});
