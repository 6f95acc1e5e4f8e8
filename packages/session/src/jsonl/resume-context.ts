import { readFile } from 'node:fs/promises';
import { buildContext, type Entry, type Message } from '@tiller/core';
import type { ReadWarning } from '../errors.js';
import { createSessionLog } from '../session-log.js';
import { checkEntryShape } from './check-entry-shape.js';
import { SESSION_FORMAT_VERSION, type SessionFileHeader } from './format.js';
import { JsonlStore } from './jsonl-store.js';
import { parseHeader } from './parse-session-file.js';

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
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KIND_PREFIX = Buffer.from('{"kind":"');
const ID_PREFIX = Buffer.from(',"id":');
const PARENT_PREFIX = Buffer.from(',"parentId":');
const NULL = Buffer.from('null');

/**
 * The context at the end of a session file without parsing all of it: walks the leaf's path
 * backwards from the last line, reading only the `kind`/`id`/`parentId` prefix of lines that are
 * not on it, and stops at the latest compaction's first kept entry. Lines before that are never
 * decoded. A file this cannot read line by line (an older format, a corrupt line on the path, a
 * line without the prefix) is opened fully instead, with the usual warnings.
 */
export async function resumeContext(path: string): Promise<ResumedContext> {
  const bytes = await readFile(path);
  const headerEnd = bytes.indexOf(NEWLINE);
  const header = parseHeader(bytes.toString('utf8', 0, headerEnd < 0 ? bytes.length : headerEnd), path, headerEnd < 0);
  const tail = header.version === SESSION_FORMAT_VERSION && headerEnd >= 0 ? readTail(bytes, headerEnd + 1, path) : undefined;
  if (tail) return { header, ...tail, context: buildContext(tail.path), read: 'tail' };
  return fullRead(path);
}

async function fullRead(path: string): Promise<ResumedContext> {
  const store = await JsonlStore.open(path, { readOnly: true });
  const log = createSessionLog(store);
  const full = log.path();
  return { header: store.header, leafId: log.leafId, path: full, context: buildContext(full), read: 'full', warnings: [...store.warnings] };
}

function readTail(bytes: Buffer, bodyStart: number, file: string): Omit<ResumedContext, 'header' | 'context' | 'read'> | undefined {
  const warnings: ReadWarning[] = [];
  const collected: Entry[] = [];
  let want: string | null | undefined;
  let firstKept: string | undefined;
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
        if (terminated) return undefined;
        const thisLine = lineNumberAt(bytes, lineStart);
        warnings.push({ line: thisLine, kind: 'torn_line', message: `${file}:${thisLine}: the last line is incomplete (a write was cut off); skipped` });
        continue;
      }
      want = entry.id;
    }
    const prefix = readPrefix(bytes, lineStart, contentEnd);
    if (!prefix) return undefined;
    if (prefix.id !== want) continue;
    const entry = parseLine(bytes, lineStart, contentEnd);
    if (!entry) return undefined;
    collected.push(entry);
    if (entry.kind === 'compaction' && firstKept === undefined) firstKept = entry.firstKeptEntryId;
    if (entry.id === firstKept) break;
    want = entry.parentId;
    if (want === null) break;
  }
  return { leafId: collected[0]?.id ?? null, path: collected.reverse(), warnings };
}

function parseLine(bytes: Buffer, start: number, end: number): Entry | undefined {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8', start, end));
    return checkEntryShape(value) ? undefined : (value as Entry);
  } catch {
    return undefined;
  }
}

/** `kind`, `id` and `parentId` from the start of a line, as the current format writes them. */
function readPrefix(bytes: Buffer, start: number, end: number): { id: string; parentId: string | null } | undefined {
  if (!matches(bytes, start, KIND_PREFIX)) return undefined;
  const kindEnd = bytes.indexOf(QUOTE, start + KIND_PREFIX.length);
  if (kindEnd < 0 || kindEnd >= end || !matches(bytes, kindEnd + 1, ID_PREFIX)) return undefined;
  const id = readString(bytes, kindEnd + 1 + ID_PREFIX.length, end);
  if (!id || !matches(bytes, id.next, PARENT_PREFIX)) return undefined;
  const parentAt = id.next + PARENT_PREFIX.length;
  if (matches(bytes, parentAt, NULL)) return { id: id.value, parentId: null };
  const parent = readString(bytes, parentAt, end);
  return parent ? { id: id.value, parentId: parent.value } : undefined;
}

function readString(bytes: Buffer, at: number, end: number): { value: string; next: number } | undefined {
  if (bytes[at] !== QUOTE) return undefined;
  let escaped = false;
  for (let i = at + 1; i < end; i++) {
    const byte = bytes[i];
    if (byte === BACKSLASH) {
      escaped = true;
      i++;
    } else if (byte === QUOTE) {
      const value = escaped ? (JSON.parse(bytes.toString('utf8', at, i + 1)) as string) : bytes.toString('utf8', at + 1, i);
      return { value, next: i + 1 };
    }
  }
  return undefined;
}

function matches(bytes: Buffer, at: number, literal: Buffer): boolean {
  return at + literal.length <= bytes.length && bytes.compare(literal, 0, literal.length, at, at + literal.length) === 0;
}

/** The 1-based number of the line that starts at `offset` (only for a warning: it scans the file). */
function lineNumberAt(bytes: Buffer, offset: number): number {
  let count = 1;
  for (let i = bytes.indexOf(NEWLINE); i >= 0 && i < offset; i = bytes.indexOf(NEWLINE, i + 1)) count++;
  return count;
}
