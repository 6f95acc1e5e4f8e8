import type { Entry } from '@tiller/core';
import { AppendError } from '../errors/index.js';

/** What the file system said (its errors are Errors; anything else as text). */
const systemWords = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** At most this many ids are named; a longer run is counted after them. */
const NAMED = 3;

/** Entries as a message names them: the first few ids, and how many there are in all. Constant in size. */
export interface EntryNames {
  readonly ids: readonly string[];
  readonly count: number;
}

export const NO_ENTRIES: EntryNames = { ids: [], count: 0 };

/** `names` followed by `entries`. */
export function withEntries(names: EntryNames, entries: readonly Entry[]): EntryNames {
  if (names.ids.length >= NAMED) return { ids: names.ids, count: names.count + entries.length };
  return { ids: [...names.ids, ...entries.slice(0, NAMED - names.ids.length).map((e) => e.id)], count: names.count + entries.length };
}

/** `first` followed by `then`. */
export function joinNames(first: EntryNames, then: EntryNames): EntryNames {
  return { ids: [...first.ids, ...then.ids].slice(0, NAMED), count: first.count + then.count };
}

function entriesName({ ids, count }: EntryNames): string {
  if (count === 1) return `the entry ${ids[0]}`;
  return `the entries ${ids.join(', ')}${count > ids.length ? ` and ${count - ids.length} more` : ''}`;
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
  return new AppendError('write_failed', entries[0]?.id ?? '', `${path}: cannot append ${entriesName(withEntries(NO_ENTRIES, entries))}: ${why}; ${after}`, { cause: error });
}

/**
 * The error of a sync that failed after its appends had resolved (`fsync: 'batch'`, or `flush`
 * and `close` under `never`): those entries are in the file as the system reads it back, but
 * whether they reached the disk is not known.
 */
export function syncFailed(path: string, inDoubt: EntryNames, error: unknown): AppendError {
  const them = inDoubt.count === 1 ? 'it was' : 'they were';
  return new AppendError(
    'write_failed',
    inDoubt.ids[0] ?? '',
    `${path}: the sync of ${entriesName(inDoubt)} failed: ${systemWords(error)}; ${them} appended, but may not have reached the disk`,
    { cause: error },
  );
}
