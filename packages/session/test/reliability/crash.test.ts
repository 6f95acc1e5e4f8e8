import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, expect, it } from 'vitest';
import { createSessionLog, JsonlStore } from '../../src/index.js';
import { useTempDir } from '../temp-dir.js';
import { bundleScript } from './bundle-script.js';

const KILLS = 50;
const SEED = 0x7111e5;
const tempDir = useTempDir('tiller-crash-suite-');
let writer: string;
beforeAll(async () => {
  writer = await bundleScript('append-writer.ts', tempDir());
}, 60_000);

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs the writer until it has acknowledged `acks` appends (0: only opened), waits `delayMs`
 * more, kills it with SIGKILL, and returns the ids it acknowledged.
 */
async function killWriter(file: string, round: number, acks: number, delayMs: number): Promise<string[]> {
  const child = spawn(process.execPath, [writer, file, String(round), String(SEED + round)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const acknowledged: string[] = [];
  let seen = 0;
  let killing = false;
  const exited = new Promise<void>((resolve, reject) => {
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`writer ended by itself: ${stderr}`))));
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('ack ')) {
      // Only what the writer acknowledged before the kill counts; nothing arrives after it anyway.
      acknowledged.push(...line.slice(4).split(' '));
      seen++;
    }
    if (!killing && (line === 'opened' ? acks === 0 : seen >= acks)) {
      killing = true;
      setTimeout(() => child.kill('SIGKILL'), delayMs);
    }
  });
  await exited;
  return acknowledged;
}

it(`a writer killed with SIGKILL at ${KILLS} seeded moments: every reopen loads, no acknowledged entry lost or repeated`, async () => {
  const file = join(tempDir(), 'crashed.jsonl');
  const random = prng(SEED);
  const acknowledged: string[] = [];
  for (let round = 0; round < KILLS; round++) {
    const acks = Math.floor(random() * 5);
    const delayMs = Math.floor(random() * 4);
    acknowledged.push(...(await killWriter(file, round, acks, delayMs)));

    const store = await JsonlStore.open(file, { readOnly: true });
    const ids = store.entries.map((e) => e.id);
    // Damage a kill can do: at most one torn last line, nothing else.
    expect(store.warnings.map((w) => w.kind).filter((k) => k !== 'torn_line')).toEqual([]);
    expect(store.warnings.length).toBeLessThanOrEqual(1);
    expect(new Set(ids).size).toBe(ids.length);
    // Each entry continues the one before it: nothing lost in between.
    expect(store.entries.every((e, i) => e.parentId === (i === 0 ? null : ids[i - 1]))).toBe(true);
    // Every acknowledged append is there, in order; beyond them at most the batch in flight.
    expect(ids.slice(0, acknowledged.length)).toEqual(acknowledged);
    expect(ids.length - acknowledged.length).toBeLessThanOrEqual(3);
    // What was written but not acknowledged is kept too: the next writer continues after it.
    acknowledged.push(...ids.slice(acknowledged.length));
  }
  // A writer takes the lock of the last one killed over, cuts a torn line off, and leaves a clean file.
  const log = createSessionLog(await JsonlStore.open(file));
  await log.append([{ id: 'after', parentId: log.leafId, at: '2026-01-01T00:00:00.000Z', kind: 'custom', customType: 'test.mark' }]);
  await log.close();
  const clean = await JsonlStore.open(file, { readOnly: true, strict: true });
  expect(clean.warnings).toEqual([]);
  expect(clean.entries.map((e) => e.id)).toEqual([...acknowledged, 'after']);
}, 400_000);
