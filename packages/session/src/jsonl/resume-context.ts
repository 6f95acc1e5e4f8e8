import { open, type FileHandle } from 'node:fs/promises';
import { buildContext, type Entry, type Message } from '@tiller/core';
import { SessionFileError, SessionOptionsError } from '../errors/index.js';
import { readWarning, type ReadWarning } from '../read-warning.js';
import { createSessionLog } from '../session-log.js';
import { checkEntryShape } from './check-entry-shape.js';
import { SESSION_FORMAT_VERSION, type SessionFileHeader } from './format.js';
import { JsonlStore } from './jsonl-store.js';
import { parseHeader } from './parse-session-file.js';
import { readLinePrefix } from './line-prefix.js';
import { readRange } from './read-range.js';

export interface ResumedContext {
  header: SessionFileHeader;
  leafId: string | null;
  /**
   * The end of the leaf's path that its context needs: from the latest compaction's first kept
   * entry (or from the root, when the path has no compaction) to the leaf.
   */
  path: Entry[];
  /** The messages the model sees at the leaf: the same as a full open's `context()`. */
  context: Message[];
  /** `tail`: only the needed lines were parsed; `full`: the file needed a full open (see below). */
  read: 'tail' | 'full';
  warnings: ReadWarning[];
}

const NEWLINE = 0x0a;

/** The first read from the end of the file; each further read doubles it. */
export const FIRST_WINDOW_BYTES = 1 << 20;
/** The header line is short; a file whose first line is longer is read whole. */
const HEADER_BYTES = 64 * 1024;

/**
 * The context at the end of a session file without parsing all of it: walks the leaf's path
 * backwards from the last line, reading only the `kind`/`id`/`parentId` prefix of lines that are
 * not on it, and stops at the latest compaction's first kept entry. Lines before that are never
 * decoded, and never read from disk either: the file is read from its end in windows that double
 * until the walk is done. A file this cannot read line by line (an older format, a corrupt line
 * on the path, a line without the prefix) is opened fully instead, with the usual warnings.
 */
export async function resumeContext(path: string): Promise<ResumedContext> {
  if (typeof path !== 'string' || path === '') {
    throw new SessionOptionsError('resumeContext', 'path', `expected the path of a session file, got ${JSON.stringify(path) ?? String(path)}`);
  }
  const handle = await open(path, 'r').catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no session file there' : `cannot read the session file: ${(error as Error).message}`;
    throw new SessionFileError({ file: path, line: 0 }, reason, code === 'ENOENT' ? 'not_found' : 'unreadable');
  });
  let tail: SettledRead;
  let header: SessionFileHeader;
  try {
    const { size } = await handle.stat();
    const head = await readRange(handle, 0, Math.min(size, HEADER_BYTES));
    const headerEnd = head.indexOf(NEWLINE);
    if (headerEnd < 0 && size > head.length) return await fullRead(path);
    header = parseHeader(head.toString('utf8', 0, headerEnd < 0 ? head.length : headerEnd), path, headerEnd < 0);
    if (header.version !== SESSION_FORMAT_VERSION || headerEnd < 0) return await fullRead(path);
    tail = await readTailWindows(handle, size, headerEnd + 1, path);
  } finally {
    await handle.close();
  }
  if (tail.kind === 'unreadable') return fullRead(path);
  return { header, leafId: tail.leafId, path: tail.path, warnings: tail.warnings, context: buildContext(tail.path, { openBatch: 'leave' }), read: 'tail' };
}

/**
 * Reads `[start, size)` windows from the end, doubling, until the walk is done or the window
 * reaches `bodyStart` (then the walk always ends). A torn last line needs its line number, which
 * only the whole body gives: that read goes straight to the whole body.
 */
async function readTailWindows(handle: FileHandle, size: number, bodyStart: number, file: string): Promise<SettledRead> {
  let windowBytes = FIRST_WINDOW_BYTES;
  for (;;) {
    const start = Math.max(bodyStart, size - windowBytes);
    const whole = start === bodyStart;
    const bytes = await readRange(handle, start, size - start);
    // In a partial window the first line may be cut: lines are read from the first newline on.
    const firstLine = whole ? 0 : bytes.indexOf(NEWLINE) + 1;
    const result: TailRead = firstLine === 0 && !whole ? { kind: 'more' } : readTail(bytes, firstLine, whole, file);
    if (result.kind === 'path' || result.kind === 'unreadable') return result;
    if (whole) throw new Error(`${file}: a walk over the whole body ended without a result`);
    windowBytes = result.kind === 'more' ? windowBytes * 2 : size;
  }
}

async function fullRead(path: string): Promise<ResumedContext> {
  const store = await JsonlStore.open(path, { readOnly: true });
  const log = createSessionLog(store);
  const full = log.path();
  return { header: store.header, leafId: log.leafId, path: full, context: log.context(), read: 'full', warnings: [...store.warnings] };
}

/**
 * What a walk over one window found: the path, a line it cannot read (`unreadable`: open fully),
 * or that it needs the bytes before the window (`more`) or the whole body (`whole`).
 */
type TailRead =
  | { kind: 'path'; leafId: string | null; path: Entry[]; warnings: ReadWarning[] }
  | { kind: 'unreadable' }
  | { kind: 'more' }
  | { kind: 'whole' };
type SettledRead = Extract<TailRead, { kind: 'path' | 'unreadable' }>;

/**
 * Walks the leaf's path backwards over `bytes`, lines starting at `bodyStart`. With `whole`, the
 * bytes are the file's whole body (everything after the header line) and the walk always ends.
 */
function readTail(bytes: Buffer, bodyStart: number, whole: boolean, file: string): TailRead {
  const warnings: ReadWarning[] = [];
  const collected: Entry[] = [];
  // Every id the walk has passed. A full open keeps the last line of an id that repeats; going
  // backwards, the first line met is that one, but a repeat seen here (or a parent that only a
  // later line has) needs the whole file to be read the same way: it is opened fully.
  const seen = new Set<string>();
  let want: string | null | undefined;
  let firstKept: string | undefined;
  let rootStart = -1;
  const done = (): TailRead => ({ kind: 'path', leafId: collected[0]?.id ?? null, path: collected.reverse(), warnings });
  let lineEnd = bytes.length;
  while (lineEnd > bodyStart) {
    const terminated = bytes[lineEnd - 1] === NEWLINE;
    const contentEnd = terminated ? lineEnd - 1 : lineEnd;
    const start = contentEnd > bodyStart ? bytes.lastIndexOf(NEWLINE, contentEnd - 1) + 1 : bodyStart;
    const lineStart = Math.max(start, bodyStart);
    lineEnd = lineStart;
    if (contentEnd === lineStart) continue;
    if (want === undefined) {
      // The last line decides the leaf; it may be torn.
      const entry = parseLine(bytes, lineStart, contentEnd);
      if (!entry) {
        if (terminated) return { kind: 'unreadable' };
        if (!whole) return { kind: 'whole' };
        const line = lineNumberAt(bytes, lineStart) + 1;
        warnings.push(readWarning('torn_line', { file, line }, 'the last line is incomplete (a write was cut off)'));
        continue;
      }
      want = entry.id;
    }
    const prefix = readLinePrefix(bytes, lineStart, contentEnd);
    if (!prefix || seen.has(prefix.id)) return { kind: 'unreadable' };
    seen.add(prefix.id);
    if (prefix.id !== want) continue;
    const entry = parseLine(bytes, lineStart, contentEnd);
    if (!entry) return { kind: 'unreadable' };
    collected.push(entry);
    rootStart = lineStart;
    if (entry.kind === 'compaction' && firstKept === undefined) firstKept = entry.firstKeptEntryId;
    if (entry.id === firstKept) return done();
    want = entry.parentId;
    if (want === null) return done();
  }
  // Out of lines: in a partial window the rest of the path lies before the window.
  if (!whole) return { kind: 'more' };
  // In the whole body the path ends here: its first entry's parent is on no earlier line, and a
  // full open reads that entry as a root too.
  const root = collected.at(-1);
  if (root && root.parentId !== null) {
    const line = lineNumberAt(bytes, rootStart) + 1;
    warnings.push(readWarning('missing_parent', { file, line, field: 'parentId' }, `parent "${root.parentId}" is not an earlier entry`));
    collected[collected.length - 1] = { ...root, parentId: null };
  }
  return done();
}

function parseLine(bytes: Buffer, start: number, end: number): Entry | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8', start, end));
    return checkEntryShape(value) ? undefined : (value as Entry);
  } catch {
    return undefined;
  }
}

/** The 1-based number, counted from the header line, of the body line that starts at `offset` (only for a warning: it scans the body). */
function lineNumberAt(bytes: Buffer, offset: number): number {
  let count = 1;
  for (let i = bytes.indexOf(NEWLINE); i >= 0 && i < offset; i = bytes.indexOf(NEWLINE, i + 1)) count++;
  return count;
}
