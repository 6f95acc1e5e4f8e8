import type { Entry } from '@tiller/core';
import { AppendError } from '../errors/index.js';

/** What the file system said (its errors are Errors; anything else as text). */
const systemWords = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** At most this many ids are named; a longer batch is counted after them. */
const NAMED = 3;

function batchName(entries: readonly Entry[]): string {
  if (entries.length === 1) return `the entry ${entries[0]!.id}`;
  const named = entries.slice(0, NAMED).map((e) => e.id).join(', ');
  return `the entries ${named}${entries.length > NAMED ? ` and ${entries.length - NAMED} more` : ''}`;
}

/**
 * The error of an append the file system refused (a full disk, a file size limit, a failed sync).
 * `cutBack` is what became of the part already written: cut off (undefined), or why not.
 */
export function appendFailed(path: string, entries: readonly Entry[], error: unknown, cutBack: unknown): AppendError {
  const why = systemWords(error);
  const after =
    cutBack === undefined
      ? 'the file was cut back to its last whole entry, so none of them is in it'
      : `the file could not be cut back to its last whole entry (${systemWords(cutBack)}), so its end may hold part of them; the next append cuts it first`;
  return new AppendError('write_failed', entries[0]?.id ?? '', `${path}: cannot append ${batchName(entries)}: ${why}; ${after}`, { cause: error });
}
