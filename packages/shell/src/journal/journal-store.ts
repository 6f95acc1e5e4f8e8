import { type FileHandle, open, readFile } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ToolOutcome } from '@tiller/core';
import { z } from 'zod';
import { describeThrown } from '../describe-thrown.js';
import { AgentOptionsError } from '../errors/agent-options-error.js';
import { JournalWriteError } from '../errors/journal-write-error.js';
import type { JournalLine } from './journal-format.js';
import { parseJournal, type TornLine } from './parse-journal.js';

/** Where an agent writes its journal. `append` resolves once the line is written. */
export interface JournalStore {
  append(line: JournalLine): Promise<void>;
  /** The lines written so far (a file journal reads its file). */
  read(): Promise<JournalLine[]>;
  /** Torn lines the last `read` left out (their write was cut short); a store that cannot tear leaves this out. */
  readonly torn?: readonly TornLine[] | undefined;
  /**
   * Gets ready to append, writing nothing of its own (a file journal opens its file and ends a
   * cut-short last line). `resumeAgent` calls it before the resumed turn goes on, whose first line
   * would otherwise come only after the work it resumes (a model call): a journal that still cannot
   * be written then stops the turn before that work is done. Optional.
   */
  open?(): Promise<void>;
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

const FileJournalOptions = z.strictObject({ durability: z.enum(['always', 'never']).optional() });

/**
 * A JSONL journal file; a new agent over the same file starts a new segment with its header. A
 * file a crash left with a torn last line gets a line break before the next line, so the torn
 * part stays a line of its own (which `read` reports and leaves out).
 */
export function fileJournal(path: string, options: FileJournalOptions = {}): JournalStore & { readonly path: string; open(): Promise<void>; close(): Promise<void> } {
  if (typeof path !== 'string' || path === '') throw new AgentOptionsError(`fileJournal: expected the journal file's path, got ${JSON.stringify(path) ?? String(path)}`);
  const checked = FileJournalOptions.safeParse(options);
  if (!checked.success) throw new AgentOptionsError(`fileJournal(${path}): invalid options:\n${z.prettifyError(checked.error)}`);
  // Checked here, at configuration: found at the first write, it would stop the agent mid-turn.
  const place = placeProblem(path);
  if (place) throw new AgentOptionsError(`fileJournal(${path}): ${place}`);
  const sync = (checked.data.durability ?? 'always') === 'always';
  const compact = compactToolResults();
  let handle: Promise<FileHandle> | undefined;
  let queue: Promise<void> = Promise.resolve();
  let torn: readonly TornLine[] = [];
  /** Runs `work` on the open file, in turn with every other write; a failure drops the file, so the next write opens it again. */
  const write = (what: string, work: (file: FileHandle) => Promise<void>) => {
    const job = queue.then(async () => {
      try {
        handle ??= openForAppend(path);
        await work(await handle);
      } catch (error) {
        // A full disk or a size limit cuts the line short (or fails the open): the next write
        // opens the file again, and so ends a cut-short line before its own, instead of fusing
        // the two into one torn line or failing on a handle that never opened.
        const opened = handle;
        handle = undefined;
        await opened?.then((file) => file.close()).catch(() => undefined);
        throw new JournalWriteError(`${path}: cannot ${what}: ${describeThrown(error)}`, { cause: error });
      }
    });
    queue = job.catch(() => undefined);
    return job;
  };
  return {
    path,
    append: (line) =>
      write(`append the journal's ${line.type} line`, async (file) => {
        await file.appendFile(`${JSON.stringify(compact(line))}\n`, 'utf8');
        if (sync) await file.datasync();
      }),
    open: () => write('open the journal to append to it', async () => undefined),
    get torn() {
      return torn;
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
      const parsed = parseJournal(text, path);
      torn = parsed.torn;
      return parsed.lines;
    },
    async close() {
      await queue;
      const opened = handle;
      handle = undefined;
      if (opened) await (await opened).close();
    },
  };
}

/** Opens for appending; when the file does not end with a line break (a torn write), adds one. */
async function openForAppend(path: string): Promise<FileHandle> {
  const file = await open(path, 'a+');
  try {
    const { size } = await file.stat();
    if (size > 0) {
      const last = Buffer.alloc(1);
      await file.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) await file.appendFile('\n', 'utf8');
    }
  } catch (error) {
    // The caller never gets this handle (a disk still full refuses the line break): it must not stay open.
    await file.close().catch(() => undefined);
    throw error;
  }
  return file;
}

/**
 * Keeps each tool output once in the file: a `tools.done` input names a result as `recorded`
 * when it is the very outcome the call's `tool.finished` line holds (`parseJournal` puts it back).
 */
function compactToolResults(): (line: JournalLine) => unknown {
  let finished = new Map<string, ToolOutcome>();
  return (line) => {
    if (line.type === 'tool.finished') finished.set(line.toolCallId, line.outcome);
    if (line.type !== 'input' || line.input.type !== 'tools.done') return line;
    const recorded = finished;
    finished = new Map();
    const results = line.input.results.map((result) => (recorded.get(result.toolCallId) === result ? { toolCallId: result.toolCallId, recorded: true } : result));
    return { ...line, input: { ...line.input, results } };
  };
}

/** The journal file beside a session file: `chat.jsonl` -> `chat.journal.jsonl`. */
export function journalPathFor(sessionPath: string): string {
  return `${sessionPath.replace(/\.jsonl$/, '')}.journal.jsonl`;
}

/** Why a journal cannot be written at `path` (a folder there, or no folder for it), or undefined. */
function placeProblem(path: string): string | undefined {
  const folder = dirname(path);
  try {
    const at = statSync(path, { throwIfNoEntry: false });
    if (at?.isDirectory()) return 'that is a folder; give the path of a file in it';
    if (at) return undefined;
    const parent = statSync(folder, { throwIfNoEntry: false });
    if (!parent) return `the folder ${folder} does not exist; create it first`;
    return parent.isDirectory() ? undefined : `${folder} is not a folder`;
  } catch (error) {
    // A file stands where a folder of the path should be; anything else (no permission) the first write reports.
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? `a file stands where a folder of ${folder} should be` : undefined;
  }
}
