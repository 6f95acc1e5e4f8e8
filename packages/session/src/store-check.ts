import type { Entry } from '@tiller/core';
import { SessionStoreError } from './errors/index.js';
import { checkEntryShape } from './jsonl/check-entry-shape.js';
import type { SessionStore } from './store.js';

/** The store is what `createSessionLog` needs, or a `SessionStoreError` says what is missing. */
export function checkStore(store: unknown): asserts store is SessionStore {
  if (typeof store !== 'object' || store === null) {
    throw new SessionStoreError(`must be a SessionStore (a MemoryStore, a JsonlStore or one of your own), got ${store === null ? 'null' : typeof store}`);
  }
  const s = store as Record<string, unknown>;
  if (!Array.isArray(s.entries)) throw new SessionStoreError('has no entries array (store.entries)');
  if (typeof s.readOnly !== 'boolean') throw new SessionStoreError('has no boolean readOnly (store.readOnly)');
  for (const method of ['append', 'close'] as const) {
    if (typeof s[method] !== 'function') throw new SessionStoreError(`has no ${method}() method (store.${method})`);
  }
  if (s.takeIndex !== undefined && typeof s.takeIndex !== 'function') throw new SessionStoreError('has a takeIndex that is not a function');
  if (s.warnings !== undefined && !Array.isArray(s.warnings)) throw new SessionStoreError('has warnings that are not an array');
}

/**
 * Indexes the entries of a store that did not check them while loading (a store of the host's
 * own, a MemoryStore given entries): each must have the fields the log relies on, a new id and a
 * parent that comes before it, or a path could lead nowhere or around in a circle.
 */
export function indexStoreEntries(entries: readonly Entry[], byId: Map<string, Entry>): void {
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const problem = checkEntryShape(entry);
    if (problem) throw new SessionStoreError(`holds a bad entry at entries[${i}], field ${problem.field}: ${problem.reason}`);
    if (byId.has(entry.id)) throw new SessionStoreError(`holds the id "${entry.id}" twice (entries[${i}])`);
    if (entry.parentId !== null && !byId.has(entry.parentId)) {
      throw new SessionStoreError(`holds entries[${i}] ("${entry.id}") before its parent "${entry.parentId}"`);
    }
    byId.set(entry.id, entry);
  }
}
