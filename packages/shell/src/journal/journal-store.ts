import { type FileHandle, open, readFile } from 'node:fs/promises';
import { type JournalLine, parseJournalLines } from './journal-format.js';

/** Where an agent writes its journal. `append` resolves once the line is written. */
export interface JournalStore {
  append(line: JournalLine): Promise<void>;
  /** The lines written so far (a file journal reads its file). */
  read(): Promise<JournalLine[]>;
  /** Releases what the store holds (an open file); `agent.close()` calls it. */
  close?(): Promise<void>;
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

export interface FileJournalOptions {
  /**
   * `always` (default): each line reaches the disk before `append` resolves. The journal is written
   * ahead of the session log, so it must be at least as durable: then a machine crash can never
   * leave the log ahead of the journal, nor lose the note that a tool call had started.
   * `never`: the operating system decides (a crash of the process still loses nothing).
   */
  durability?: 'always' | 'never';
}

/** A JSONL journal file; a new agent over the same file starts a new segment with its header. */
export function fileJournal(path: string, options: FileJournalOptions = {}): JournalStore & { readonly path: string; close(): Promise<void> } {
  const sync = (options.durability ?? 'always') === 'always';
  let handle: Promise<FileHandle> | undefined;
  let queue: Promise<void> = Promise.resolve();
  return {
    path,
    append(line) {
      const job = queue.then(async () => {
        handle ??= open(path, 'a');
        const file = await handle;
        await file.appendFile(`${JSON.stringify(line)}\n`, 'utf8');
        if (sync) await file.datasync();
      });
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
    async close() {
      await queue;
      const opened = handle;
      handle = undefined;
      if (opened) await (await opened).close();
    },
  };
}

/** The journal file beside a session file: `chat.jsonl` -> `chat.journal.jsonl`. */
export function journalPathFor(sessionPath: string): string {
  return `${sessionPath.replace(/\.jsonl$/, '')}.journal.jsonl`;
}
