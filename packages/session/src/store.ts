import type { Entry } from '@tiller/core';

/**
 * Where a session log keeps its entries. A store only ever appends; the log checks every batch
 * (unique ids, known parents) before it reaches the store.
 */
export interface SessionStore {
  /** The entries the store held when it was opened, in the order they were appended. */
  readonly entries: readonly Entry[];
  /** True when the store was opened only to read: `append` refuses. */
  readonly readOnly: boolean;
  /** Writes a batch; resolves once it is as durable as the store promises. */
  append(entries: readonly Entry[]): Promise<void>;
  /** Finishes pending writes and releases what the store holds (a file lock). */
  close(): Promise<void>;
}
