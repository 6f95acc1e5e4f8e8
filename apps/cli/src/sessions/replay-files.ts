import { readFile } from 'node:fs/promises';
import type { Entry, TurnEvent } from '@tiller/core';
import { createSessionLog, JsonlStore, type SessionLog } from '@tiller/session';
import { type JournalHeader, type JournalLine, type JournalReplay, parseJournal, replayJournal } from '@tiller/shell';
import { inputError } from '../cli/errors.js';
import { tornJournalWarnings } from '../cli/read-warnings.js';
import { whyNotWritten } from '../cli/write-failure.js';

/** One agent run of a journal, replayed. */
export interface SegmentReplay {
  /** 1-based. */
  index: number;
  header: JournalHeader;
  inputs: Array<Extract<JournalLine, { type: 'input' }>>;
  replay: JournalReplay;
}

export interface FilesReplay {
  journalPath: string;
  sessionPath: string | undefined;
  segments: SegmentReplay[];
  /** The first segment whose replay differs from its record, if any. */
  diverged: SegmentReplay | undefined;
  /** What reading skipped or repaired: the journal's torn lines, the session file's warnings. */
  warnings: string[];
}

/** Reads a whole file, or says in one line why it cannot be read (exit code 3). */
export async function readInputFile(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw inputError(`${path}: no such ${what}`);
    if (code === 'EISDIR') throw inputError(`${path}: is a folder, not a ${what}`);
    if (code === 'ENOTDIR') throw inputError(`${path}: no such ${what} (${whyNotWritten(path, error)})`);
    throw inputError(`${path}: cannot read the ${what}: ${(error as Error).message}`);
  }
}

/** Opens a Tiller session file without taking its lock or writing anything. */
export async function openSessionReadOnly(path: string): Promise<SessionLog> {
  return createSessionLog(await JsonlStore.open(path, { readOnly: true }));
}

/**
 * Replays every segment of a journal through the pure core, with no model and no tool: each from
 * the session path it started at (read from the session file when a segment did not start on an
 * empty session).
 */
export async function replayFiles(journalPath: string, sessionPath: string | undefined): Promise<FilesReplay> {
  const { lines, torn } = parseJournal(await readInputFile(journalPath, 'journal'), journalPath);
  if (lines.length === 0) throw inputError(`${journalPath}: the journal is empty`);
  const session = sessionPath ? await openSessionReadOnly(sessionPath) : undefined;
  const warnings = [...tornJournalWarnings(journalPath, torn), ...(session?.warnings.map((w) => w.message) ?? [])];
  try {
    const segments: SegmentReplay[] = [];
    for (const [i, segment] of splitSegments(lines).entries()) {
      const header = segment[0] as JournalHeader;
      const base = baseFor(header, session, i + 1, journalPath);
      const replay = replayJournal(segment, { base });
      segments.push({ index: i + 1, header, inputs: segment.filter((l) => l.type === 'input'), replay });
    }
    return { journalPath, sessionPath, segments, diverged: segments.find((s) => s.replay.divergence !== null), warnings };
  } finally {
    await session?.close();
  }
}

function splitSegments(lines: readonly JournalLine[]): JournalLine[][] {
  const segments: JournalLine[][] = [];
  for (const line of lines) {
    if (line.type === 'header') segments.push([line]);
    else segments.at(-1)!.push(line);
  }
  return segments;
}

function baseFor(header: JournalHeader, session: SessionLog | undefined, index: number, journalPath: string): readonly Entry[] {
  if (header.baseLeafId === null) return [];
  if (!session) throw inputError(`${journalPath}: segment ${index} continues a session (from entry ${header.baseLeafId}); give the session file`);
  if (!session.has(header.baseLeafId)) {
    throw inputError(`${journalPath}: segment ${index} starts from entry ${header.baseLeafId}, which the session ${session.store.constructor.name === 'JsonlStore' ? (session.store as JsonlStore).path : ''} does not hold`);
  }
  return session.path(header.baseLeafId);
}

/** The id an input answers (a model call, a tool batch, a compaction), whatever the journal version names it. */
export function inputId(input: TurnEvent): string | undefined {
  const record = input as unknown as Record<string, unknown>;
  for (const key of ['id', 'callId', 'batchId', 'compactionId', 'turnId']) if (typeof record[key] === 'string') return record[key] as string;
  return undefined;
}
