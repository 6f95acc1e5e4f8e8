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

/** A sync that failed after its appends had resolved: the entries it was for, and the system's error. */
export interface SyncFailure {
  readonly inDoubt: EntryNames;
  readonly cause: unknown;
}

/** Those entries are in the file as the system reads it back, but whether they reached the disk is not known. */
function syncWords({ inDoubt, cause }: SyncFailure): string {
  const them = inDoubt.count === 1 ? 'it was' : 'they were';
  return `the sync of ${entriesName(inDoubt)} failed: ${systemWords(cause)}; ${them} appended, but may not have reached the disk`;
}

/** The error of a failed sync (`fsync: 'batch'`, or `flush` and `close`), told to a `flush` or `close`. */
export function syncFailed(path: string, failure: SyncFailure): AppendError {
  return new AppendError('write_failed', failure.inDoubt.ids[0] ?? '', `${path}: ${syncWords(failure)}`, { cause: failure.cause });
}

/** The error of an append refused because an earlier sync failed: nothing of it is written. */
export function refusedAfterSyncFailure(path: string, entries: readonly Entry[], failure: SyncFailure): AppendError {
  return new AppendError(
    'write_failed',
    entries[0]?.id ?? '',
    `${path}: cannot append ${entriesName(withEntries(NO_ENTRIES, entries))}: ${syncWords(failure)}; this store appends nothing more: close it and open the file again to go on`,
    { cause: failure.cause },
  );
}
