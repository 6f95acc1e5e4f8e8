import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { JsonlStore } from '../../src/index.js';
import { useTempDir } from '../temp-dir.js';
import { bundleScript } from './bundle-script.js';

const RACERS = 6;
const ROUNDS = 16;
const tempDir = useTempDir('tiller-lock-race-');

interface Racer {
  child: ChildProcessWithoutNullStreams;
  next(): Promise<string>;
}

/** A racer process (node itself runs the script: the pid we talk to is the one that takes the lock). */
function startRacer(script: string): Racer {
  const child = spawn(process.execPath, [script]);
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return {
    child,
    next: () => {
      const line = lines.shift();
      return line !== undefined ? Promise.resolve(line) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

let racers: Racer[] = [];
beforeAll(async () => {
  const script = await bundleScript('lock-racer.ts', tempDir());
  racers = Array.from({ length: RACERS }, () => startRacer(script));
}, 60_000);
afterAll(() => {
  for (const racer of racers) racer.child.kill('SIGKILL');
});

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

it(`${RACERS} processes racing for a stale lock, ${ROUNDS} rounds: exactly one holder each round`, async () => {
  const file = join(tempDir(), 'raced.jsonl');
  await (await JsonlStore.open(file, { create: true })).close();
  const stalePid = deadPid();
  for (let round = 0; round < ROUNDS; round++) {
    // What a writer that crashed leaves behind.
    await writeFile(`${file}.lock`, `${stalePid} stale-${round}\n`);
    // Far enough ahead that every racer has read its line and is spinning.
    const at = Date.now() + 150;
    for (const racer of racers) racer.child.stdin.write(`go ${round} ${file} ${at}\n`);
    const answers = await Promise.all(racers.map((r) => r.next()));
    const holders = racers.filter((_, i) => answers[i] === `held ${round}`);
    expect(answers.filter((a) => !a.startsWith('held') && !a.startsWith('locked'))).toEqual([]);
    expect({ round, holders: holders.length }).toEqual({ round, holders: 1 });
    for (const holder of holders) holder.child.stdin.write(`release ${round}\n`);
    expect(await Promise.all(holders.map((h) => h.next()))).toEqual(holders.map(() => `released ${round}`));
  }
}, 60_000);
