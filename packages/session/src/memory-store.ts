import type { Entry } from '@tiller/core';
import { AppendError } from './errors/index.js';
import type { SessionStore } from './store.js';

/** A store in memory: for tests, previews and sessions that need not outlive the process. */
export class MemoryStore implements SessionStore {
  readonly readOnly = false;
  readonly #entries: Entry[];
  #closed = false;

  constructor(entries: readonly Entry[] = []) {
    this.#entries = [...entries];
  }

  /** Everything appended so far (a memory store has no separate "loaded" state). */
  get entries(): readonly Entry[] {
    return this.#entries;
  }

  async append(entries: readonly Entry[]): Promise<void> {
    if (this.#closed) throw new AppendError('closed', entries[0]?.id ?? '', 'the memory store is closed');
    for (const entry of entries) this.#entries.push(entry);
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
