import { appendFile, readFile } from 'node:fs/promises';
import { type JournalLine, parseJournalLines } from './journal-format.js';

/** Where an agent writes its journal. `append` resolves once the line is written. */
export interface JournalStore {
  append(line: JournalLine): Promise<void>;
  /** The lines written so far (a file journal reads its file). */
  read(): Promise<JournalLine[]>;
}

export function memoryJournal(lines: JournalLine[] = []): JournalStore & { readonly lines: readonly JournalLine[] } {
  return {
    lines,
    async append(line) {
      // The shell builds each line fresh and never changes it afterwards: no copy needed.
      lines.push(line);
    },
    async read() {
      return structuredClone(lines);
    },
  };
}

/** A JSONL journal file; a new agent over the same file starts a new segment with its header. */
export function fileJournal(path: string): JournalStore & { readonly path: string } {
  let queue: Promise<void> = Promise.resolve();
  return {
    path,
    append(line) {
      const job = queue.then(() => appendFile(path, `${JSON.stringify(line)}\n`, 'utf8'));
      queue = job.catch(() => undefined);
      return job;
    },
    async read() {
      await queue;
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      return parseJournalLines(text, path);
    },
  };
}

/** The journal file beside a session file: `chat.jsonl` -> `chat.journal.jsonl`. */
export function journalPathFor(sessionPath: string): string {
  return `${sessionPath.replace(/\.jsonl$/, '')}.journal.jsonl`;
}
