import { appendFile } from 'node:fs/promises';
import type { Entry } from '@tiller/core';
import { createSessionLog, exportPiSession, importPiSession, JsonlStore, MemoryStore, type PiSessionHeader, type SessionLog } from '@tiller/session';
import { inputError } from '../cli/errors.js';
import { firstLineHeader } from './first-line.js';
import { readInputFile } from './replay-files.js';

/** A session file as the CLI reads it: a Tiller session, or a pi session imported into memory. */
export type OpenedSession =
  | {
      format: 'tiller';
      path: string;
      log: SessionLog;
      store: JsonlStore;
      id: string;
      createdAt: string;
      warnings: readonly string[];
      /** The line a write was cut off in, if the file ends with one: the store cuts it off before its first append. */
      tornLine: number | undefined;
    }
  | { format: 'pi'; path: string; log: SessionLog; header: PiSessionHeader; text: string; id: string; createdAt: string; warnings: readonly string[] };

export interface OpenSessionOptions {
  /** Take the lock and allow appends (Tiller files only; a pi file is appended to as text). Default false. */
  write?: boolean;
}

/** Which format a session file is in, from its first line. */
export function sessionFormatOf(path: string, text: string): 'tiller' | 'pi' {
  if (text.trim() === '') throw inputError(`${path}: the file is empty`);
  let head: { type?: unknown };
  try {
    head = firstLineHeader(text);
  } catch {
    throw inputError(`${path}:1: not a session file (the first line is not JSON)`);
  }
  if (head.type === 'tiller.session') return 'tiller';
  if (head.type === 'session') return 'pi';
  if ((head as { format?: unknown }).format === 'tiller.journal') throw inputError(`${path}: this is a journal, not a session (tiller replay reads it)`);
  throw inputError(`${path}:1: not a Tiller or pi session (its first line has no session header)`);
}

/**
 * Opens a Tiller or pi session file. A Tiller file is read through `JsonlStore` (read-only unless
 * `write`); a pi file is imported into an in-memory log that keeps pi's ids.
 */
export async function openSession(path: string, options: OpenSessionOptions = {}): Promise<OpenedSession> {
  const text = await readInputFile(path, 'session file');
  if (sessionFormatOf(path, text) === 'tiller') {
    const store = await JsonlStore.open(path, { readOnly: !options.write });
    return {
      format: 'tiller',
      path,
      log: createSessionLog(store),
      store,
      id: store.header.id,
      createdAt: store.header.createdAt,
      warnings: store.warnings.map((w) => w.message),
      tornLine: store.warnings.find((w) => w.kind === 'torn_line')?.line,
    };
  }
  const imported = importPiSession(text, { source: path });
  return {
    format: 'pi',
    path,
    log: createSessionLog(new MemoryStore(imported.entries)),
    header: imported.header,
    text,
    id: imported.header.id,
    createdAt: imported.header.timestamp,
    warnings: imported.warnings.map((w) => w.message),
  };
}

/**
 * Appends entries to the file the session came from: through the store for a Tiller session, as
 * pi's own lines for a pi session (nothing before them is rewritten).
 */
export async function appendToSessionFile(session: OpenedSession, entries: readonly Entry[]): Promise<void> {
  switch (session.format) {
    case 'tiller':
      await session.log.append(entries);
      return;
    case 'pi': {
      const lines = exportPiSession(entries, { header: session.header }).split('\n').slice(1).join('\n');
      await appendFile(session.path, session.text.endsWith('\n') ? lines : `\n${lines}`, 'utf8');
      await session.log.append(entries);
      return;
    }
    default: {
      const unknown: never = session;
      throw new TypeError(`unknown session format ${JSON.stringify(unknown)}`);
    }
  }
}

export const closeSession = (session: OpenedSession) => session.log.close();
