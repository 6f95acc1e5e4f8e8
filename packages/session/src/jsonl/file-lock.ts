import { randomUUID } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { SessionLockedError } from '../errors.js';

export interface FileLock {
  readonly path: string;
  release(): Promise<void>;
}

/**
 * Takes `<file>.lock` for one writer. The lock file holds the holder's pid and a token; it is
 * created by hard-linking a fully written temporary file, so it never exists half-written. A lock
 * whose pid is no longer running (a holder that crashed) is taken over.
 */
export async function acquireLock(file: string): Promise<FileLock> {
  const lockPath = `${file}.lock`;
  const content = `${process.pid} ${randomUUID()}\n`;
  const temp = `${lockPath}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temp, content, { flag: 'wx' });
  try {
    await takeLock(file, lockPath, temp);
  } finally {
    await unlink(temp).catch(ignoreMissing);
  }
  let released = false;
  return {
    path: lockPath,
    async release() {
      if (released) return;
      released = true;
      // Only our own lock: never remove one a later writer took over.
      const current = await readFile(lockPath, 'utf8').catch(() => undefined);
      if (current === content) await unlink(lockPath).catch(ignoreMissing);
    },
  };
}

async function takeLock(file: string, lockPath: string, temp: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await link(temp, lockPath);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readHolder(lockPath);
    if (holder === 'gone') continue;
    if (holder === undefined || isRunning(holder)) throw new SessionLockedError(file, holder);
    // The holder is dead: its lock is stale.
    await unlink(lockPath).catch(ignoreMissing);
  }
  throw new SessionLockedError(file, undefined);
}

/** The pid in a lock file; 'gone' when the file disappeared meanwhile; undefined when unreadable. */
async function readHolder(lockPath: string): Promise<number | 'gone' | undefined> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return undefined;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
