import type { Entry } from '@tiller/core';
import type { ReadWarning } from './read-warning.js';

/**
 * Where a session log keeps its entries. A store only ever appends; the log checks every batch
 * (unique ids, known parents) before it reaches the store.
 */
export interface SessionStore {
  /** The entries the store held when it was opened, in the order they were appended. */
  readonly entries: readonly Entry[];
  /**
   * Hands over `entries` indexed by id, when the store built that index while loading them, so
   * that the log adopts it (and adds to it) instead of indexing every entry a second time. Only
   * the first call gets it; a store without one leaves this out.
   */
  takeIndex?(): Map<string, Entry> | undefined;
  /**
   * The file the store keeps the session in, for a store backed by one (`JsonlStore`). What belongs
   * with the session (an agent's journal) is kept beside it; a store without a file leaves this out.
   */
  readonly path?: string | undefined;
  /** What loading skipped or changed (a file's torn or corrupt lines); the log passes it on as `warnings`. */
  readonly warnings?: readonly ReadWarning[];
  /** True when the store was opened only to read: `append` refuses. */
  readonly readOnly: boolean;
  /** Writes a batch; resolves once it is as durable as the store promises. */
  append(entries: readonly Entry[]): Promise<void>;
  /** Finishes pending writes and releases what the store holds (a file lock). */
  close(): Promise<void>;
}
