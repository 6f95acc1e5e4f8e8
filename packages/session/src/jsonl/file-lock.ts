import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, readFile, unlink } from 'node:fs/promises';
import { SessionError, SessionFileError, SessionLockedError } from '../errors/index.js';
import { writeNewFile } from './write-new-file.js';

export interface FileLock {
  readonly path: string;
  release(): Promise<void>;
}

/** What a lock file says about its holder: `<pid> <token> <start>` (start `-` when unknown). */
interface Holder {
  pid: number;
  token: string;
  /** The holder process's start time as the system counts it (Linux: clock ticks after boot). */
  start: string | undefined;
}

// The tokens of the locks this process holds now, shared by every copy of the package it loads.
// A lock file with our pid whose token is not here was left by an earlier process that had our
// pid (a container restarted): it is stale, not ours.
const HELD_KEY = Symbol.for('tiller.session.heldLocks');
const held: Set<string> = ((globalThis as Record<symbol, unknown>)[HELD_KEY] ??= new Set<string>()) as Set<string>;

const ownStart = startTimeOf(process.pid);

/**
 * Takes `<file>.lock` for one writer. The lock file names its holder (pid, a random token, the
 * process's start time) and is created by hard-linking a fully written temporary file, so it
 * never exists half-written and two writers cannot both create it.
 *
 * A lock whose holder is gone (a writer that crashed) is taken over, and the takeover is safe
 * against writers racing for the same stale lock: removing it needs the marker file
 * `<file>.lock.takeover-<its token>`, which only one process can create; that process checks,
 * holding the marker, that the lock file still holds the token it judged dead, and only then
 * removes it. A lock file is only ever removed by its holder or by the one holder of its marker,
 * so no process can remove a lock a live writer has just taken.
 */
export async function acquireLock(file: string): Promise<FileLock> {
  const lockPath = `${file}.lock`;
  const token = randomUUID();
  const content = `${process.pid} ${token} ${ownStart ?? '-'}\n`;
  const temp = `${lockPath}.${process.pid}.${token}.tmp`;
  await writeNewFile(temp, content);
  // Counted as held from before the link: the lock is live from the moment it exists.
  held.add(token);
  try {
    await takeLock(file, lockPath, temp);
  } catch (error) {
    held.delete(token);
    throw error;
  } finally {
    await unlink(temp).catch(ignoreMissing);
  }
  let released = false;
  return {
    path: lockPath,
    async release() {
      if (released) return;
      released = true;
      held.delete(token);
      // Only our own lock: never remove one a later writer took over.
      const current = await readFile(lockPath, 'utf8').catch(() => undefined);
      if (current === content) await unlink(lockPath).catch(ignoreMissing);
    },
  };
}

async function takeLock(file: string, lockPath: string, temp: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await linkIfFree(temp, lockPath)) return;
    const holder = await readHolder(lockPath);
    if (holder === 'gone') continue;
    if (holder === undefined) throw new SessionLockedError(file, undefined);
    if (isAlive(holder)) throw new SessionLockedError(file, holder.pid);
    // False: another process is taking it over right now; look again at what it leaves.
    await removeStale(lockPath, holder.token);
  }
  throw new SessionLockedError(file, undefined);
}

/**
 * Removes the lock file at `path` if it still holds `token`, under the marker of that token.
 * False when another live process holds the marker (it is taking the lock over right now).
 */
async function removeStale(path: string, token: string): Promise<boolean> {
  const marker = `${path}.takeover-${token}`;
  const markerToken = randomUUID();
  const markerContent = `${process.pid} ${markerToken} ${ownStart ?? '-'}\n`;
  const markerTemp = `${marker}.${process.pid}.${markerToken}.tmp`;
  await writeNewFile(markerTemp, markerContent);
  held.add(markerToken);
  let taken = false;
  try {
    for (let attempt = 0; attempt < 4 && !taken; attempt++) {
      taken = await linkIfFree(markerTemp, marker);
      if (taken) break;
      const holder = await readHolder(marker);
      if (holder === 'gone') continue;
      if (holder === undefined || isAlive(holder)) break;
      // A marker of a process that died between taking and dropping it: taken over the same way.
      await removeStale(marker, holder.token);
    }
  } finally {
    await unlink(markerTemp).catch(ignoreMissing);
  }
  if (!taken) {
    held.delete(markerToken);
    return false;
  }
  try {
    const current = await readHolder(path);
    // Someone else took it over (and perhaps released it) before we got the marker: not ours to touch.
    if (current !== 'gone' && current?.token === token) await unlink(path).catch(ignoreMissing);
    return true;
  } finally {
    held.delete(markerToken);
    await unlink(marker).catch(ignoreMissing);
  }
}

/** Creates `target` as a hard link of `source`: true, or false when `target` exists. */
async function linkIfFree(source: string, target: string): Promise<boolean> {
  try {
    await link(source, target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The holder named in a lock file; 'gone' when the file disappeared meanwhile; undefined when unreadable. */
async function readHolder(lockPath: string): Promise<Holder | 'gone' | undefined> {
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return undefined;
  }
  const [pidText = '', token = '', start] = text.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || token === '') return undefined;
  return { pid, token, start: start === undefined || start === '-' ? undefined : start };
}

function isAlive(holder: Holder): boolean {
  // Our own pid: alive only if it is one of the locks we hold; else an earlier process had our pid.
  if (holder.pid === process.pid) return held.has(holder.token);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, under another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A pid the system gave to a new process since the holder died: the start times differ.
  if (holder.start === undefined) return true;
  const start = startTimeOf(holder.pid);
  return start === undefined || start === holder.start;
}

/** Field 22 of `/proc/<pid>/stat` (after the parenthesised command name); undefined off Linux. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}

/**
 * For a lock `acquireLock(file)` could not make because the system refused to write it (a full
 * disk, a read-only file system, no permission): the error naming the file, or undefined for
 * any other failure (a lock held by another writer, a missing folder).
 */
export function lockRefused(file: string, error: unknown): SessionFileError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (SessionError.isInstance(error) || typeof code !== 'string' || code === 'ENOENT' || code === 'ENOTDIR') return undefined;
  return new SessionFileError({ file, line: 0 }, `cannot create the lock file ${file}.lock: ${(error as Error).message}`, 'unwritable');
}
