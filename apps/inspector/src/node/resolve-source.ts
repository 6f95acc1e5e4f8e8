import { access, open } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { journalPathFor } from '@tiller/shell';

/** The files behind an inspection: a journal, and the session file it belongs to when there is one. */
export interface InspectorSource {
  journal: string;
  session: string | undefined;
  name: string;
}

export class InspectorSourceError extends Error {
  override readonly name = 'InspectorSourceError';
}

const exists = (path: string) => access(path).then(() => true, () => false);

async function firstLine(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.toString('utf8', 0, bytesRead).split('\n')[0] ?? '';
  } finally {
    await handle.close();
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
  let kind: unknown;
  try {
    kind = (JSON.parse(await firstLine(path)) as { type?: unknown }).type;
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
  const sibling = path.endsWith('.journal.jsonl') ? `${path.slice(0, -'.journal.jsonl'.length)}.jsonl` : undefined;
  return { journal: path, session: sibling && (await exists(sibling)) ? sibling : undefined, name: basename(path) };
}
