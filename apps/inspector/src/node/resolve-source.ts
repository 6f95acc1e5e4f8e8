import { access, open } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { journalPathFor } from '@tiller/shell';
import { InspectorSourceError } from '../errors/inspector-source-error.js';
import { withoutByteOrderMark } from '../journal/byte-order-mark.js';

/** The files behind an inspection: a journal, and the session file it belongs to when there is one. */
export interface InspectorSource {
  journal: string;
  session: string | undefined;
  name: string;
}

const exists = (path: string) => access(path).then(() => true, () => false);

/** A header line is a few hundred bytes; a first line this long without an end is no header. */
const MAX_FIRST_LINE = 1 << 20;

/** The file's first line (without a byte-order mark), read up to its newline however long it is. */
async function firstLine(path: string, file: string): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
    const chunks: Buffer[] = [];
    for (let read = 0; read < MAX_FIRST_LINE; ) {
      const chunk = Buffer.alloc(65_536);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, read);
      if (bytesRead === 0) break;
      const end = chunk.subarray(0, bytesRead).indexOf(0x0a);
      chunks.push(chunk.subarray(0, end < 0 ? bytesRead : end));
      if (end >= 0) return withoutByteOrderMark(Buffer.concat(chunks).toString('utf8'));
      read += bytesRead;
    }
    const text = Buffer.concat(chunks);
    if (text.length >= MAX_FIRST_LINE) throw new InspectorSourceError(`${file}: line 1 runs past 1 MiB without ending: this is neither a Tiller journal nor a session file`);
    return withoutByteOrderMark(text.toString('utf8'));
  } catch (error) {
    if (InspectorSourceError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') throw new InspectorSourceError(`${file} is a directory: give a journal, or a session file with its journal beside it`);
    throw new InspectorSourceError(`${file}: cannot be read (${(error as Error).message})`, { cause: error });
  } finally {
    await handle?.close();
  }
}

/**
 * A session file (its journal is beside it: `chat.jsonl` -> `chat.journal.jsonl`) or a journal
 * (its session, when beside it, is found the same way back). With `waitForJournal`, a file
 * that does not exist yet is accepted, as a journal or (a `.jsonl` name that is not
 * `.journal.jsonl`) as a session file with its journal beside it: a live run is about to write it.
 */
export async function resolveInspectorSource(file: string, options: { waitForJournal?: boolean } = {}): Promise<InspectorSource> {
  const path = resolve(file);
  if (!(await exists(path))) {
    if (options.waitForJournal) {
      // Not written yet: the name says which it will be.
      const isSession = path.endsWith('.jsonl') && !path.endsWith('.journal.jsonl');
      return { journal: isSession ? journalPathFor(path) : path, session: isSession ? path : undefined, name: basename(path) };
    }
    throw new InspectorSourceError(`${file}: no such file (give a journal, or a session file with its journal beside it)`);
  }
  const line = await firstLine(path, file);
  // An empty file is a journal no run has written to yet: the page says it holds no run.
  if (line.trim() === '') return journalSource(path);
  let kind: unknown;
  try {
    kind = (JSON.parse(line) as { type?: unknown }).type;
  } catch {
    throw new InspectorSourceError(`${file}: line 1 is not JSON: this is neither a Tiller journal nor a session file`);
  }
  if (kind === 'tiller.session') {
    const journal = journalPathFor(path);
    if (!(await exists(journal)) && !options.waitForJournal) {
      throw new InspectorSourceError(`${file} is a session file, but its journal ${journal} is not there: the session was written without one`);
    }
    return { journal, session: path, name: basename(path) };
  }
  if (kind !== 'header') throw new InspectorSourceError(`${file}: line 1 is neither a journal header nor a session header (type ${JSON.stringify(kind)})`);
  return journalSource(path);
}

/** A journal, with the session file beside it when there is one. */
async function journalSource(path: string): Promise<InspectorSource> {
  const sibling = path.endsWith('.journal.jsonl') ? `${path.slice(0, -'.journal.jsonl'.length)}.jsonl` : undefined;
  return { journal: path, session: sibling && (await exists(sibling)) ? sibling : undefined, name: basename(path) };
}
