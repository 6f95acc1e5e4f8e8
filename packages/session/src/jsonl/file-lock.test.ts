import { spawn, spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useTempDir } from '../../test/temp-dir.js';
import { SessionLockedError } from '../errors/index.js';
import { acquireLock } from './file-lock.js';

const tempDir = useTempDir('tiller-lock-');
let n = 0;
const fresh = () => join(tempDir(), `s${n++}.jsonl`);

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
}

it('a lock with our pid that this process does not hold (a restarted container) is stale: taken over', async () => {
  const file = fresh();
  await writeFile(`${file}.lock`, `${process.pid} left-by-an-earlier-process\n`);
  const lock = await acquireLock(file);
  expect(await readFile(lock.path, 'utf8')).not.toContain('left-by-an-earlier-process');
  await lock.release();
});

it('a lock this process holds is live: a second acquire fails, naming our pid', async () => {
  const file = fresh();
  const lock = await acquireLock(file);
  const error = await acquireLock(file).catch((e: unknown) => e);
  expect(SessionLockedError.isInstance(error) && error.holderPid).toBe(process.pid);
  await lock.release();
});

it('two acquires in one process at once: one holds, the other is refused', async () => {
  const file = fresh();
  const results = await Promise.allSettled([acquireLock(file), acquireLock(file)]);
  expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  for (const r of results) if (r.status === 'fulfilled') await r.value.release();
});

it('a live pid whose start time differs from the one recorded (the pid was reused) is stale', async () => {
  const file = fresh();
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
  try {
    await writeFile(`${file}.lock`, `${other.pid} old-holder 1\n`);
    const lock = await acquireLock(file);
    await lock.release();
    // The same pid with its true start time is a live holder.
    const stat = await readFile(`/proc/${other.pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    await writeFile(`${file}.lock`, `${other.pid} live-holder ${start}\n`);
    await expect(acquireLock(file)).rejects.toMatchObject({ code: 'locked', holderPid: other.pid });
  } finally {
    other.kill('SIGKILL');
  }
});

it('a takeover marker left by a process that died mid-takeover is taken over too; no files are left behind', async () => {
  const file = fresh();
  const dead = deadPid();
  await writeFile(`${file}.lock`, `${dead} stale-token\n`);
  await writeFile(`${file}.lock.takeover-stale-token`, `${dead} marker-token\n`);
  const lock = await acquireLock(file);
  await lock.release();
  const left = (await readdir(tempDir())).filter((name) => name.startsWith(file.split('/').at(-1)!));
  expect(left).toEqual([]);
});

it('a lock file it cannot read counts as held', async () => {
  const file = fresh();
  await writeFile(`${file}.lock`, 'garbage');
  await expect(acquireLock(file)).rejects.toThrow(/session is locked: .* by another writer/);
});
