import type { Entry } from '@tiller/core';
import type { SessionStore } from '@tiller/session';

/**
 * A session store that keeps what a session file would hold: each entry as the JSON line written
 * when it was appended. The log works on the entry objects; a reopen (or a crash) sees only the
 * lines, so anything that changes an entry after it was written shows up as a difference.
 */
export class DurableStore implements SessionStore {
  readonly readOnly = false;
  readonly #entries: Entry[];
  readonly #lines: string[] = [];
  readonly #ids = new Set<string>();

  constructor(lines: readonly string[] = []) {
    this.#entries = lines.map((line) => JSON.parse(line) as Entry);
    for (const [i, entry] of this.#entries.entries()) {
      this.#lines.push(lines[i]!);
      this.#ids.add(entry.id);
    }
  }

  get entries(): readonly Entry[] {
    return this.#entries;
  }

  /** The lines written so far: what a reopen reads. */
  get lines(): readonly string[] {
    return this.#lines;
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  async append(entries: readonly Entry[]): Promise<void> {
    for (const entry of entries) {
      this.#entries.push(entry);
      this.#lines.push(JSON.stringify(entry));
      this.#ids.add(entry.id);
    }
  }

  async close(): Promise<void> {}
}
