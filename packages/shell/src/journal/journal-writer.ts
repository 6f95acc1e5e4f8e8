import type { Effect, ToolCallPart, ToolOutcome, TurnEvent } from '@tiller/core';
import { now } from '../clock.js';
import { effectDigest, effectsHash } from '@tiller/core';
import { withinWriteLimit } from '../runtime/write-limit.js';
import type { ToolRefusal } from '../tools/tool-refusal.js';
import { JOURNAL_VERSION, type JournalHeader, recordsRefusals } from './journal-format.js';
import type { JournalStore } from './journal-store.js';

/** Writes an agent's journal: its segment header first, then every input and tool call, in order. */
export interface JournalWriter {
  /** An input the core was fed, and the effects it produced (their digests and the hash of their content: what a replay must reproduce). */
  input(input: TurnEvent, effects: readonly Effect[]): Promise<void>;
  /** Written before the tool runs: after a crash, a started call without a finish was interrupted. */
  toolStarted(batchId: string, call: ToolCallPart): Promise<void>;
  toolFinished(batchId: string, call: ToolCallPart, outcome: ToolOutcome): Promise<void>;
  /** Written before the host is told of the refusal: a resume keeps the call refused and tells no one again. */
  toolRefused(batchId: string, call: ToolCallPart, refusal: ToolRefusal): Promise<void>;
  /** Gets the store ready to append (`JournalStore.open`), for a resumed turn before the work it resumes. */
  open(): Promise<void>;
  /** The version of the segment being written: an older one when a resumed agent continues it. */
  segmentVersion(): number;
  /** The agent starts over from another base (the log moved between turns): the next line opens a segment with `header`. */
  segment(header: JournalHeader): void;
  /**
   * No line is written from now on: the agent was closed keeping its turn for `resumeAgent`, and
   * what the work it stopped would still write (an aborted call's finish) must not reach the
   * journal, so the resume reads the turn as it stood.
   */
  seal(): void;
  close(): Promise<void>;
}

/**
 * The writer of an agent that keeps no journal (a memory session without a `journal` option):
 * no line is built, no digest or hash computed.
 */
export const noJournal: JournalWriter = {
  input: async () => undefined,
  toolStarted: async () => undefined,
  toolFinished: async () => undefined,
  toolRefused: async () => undefined,
  open: async () => undefined,
  segmentVersion: () => JOURNAL_VERSION,
  segment: () => undefined,
  seal: () => undefined,
  close: async () => undefined,
};

/** Where writing starts: a new segment (its header goes first), or the last one on file, continued (a resumed agent). */
export type JournalStart = { kind: 'new'; header: JournalHeader } | { kind: 'continue'; header: JournalHeader; nextSeq: number };

/** Each append, and the close, that has not settled within `writeTimeoutMs` rejects. */
export function createJournalWriter(store: JournalStore, start: JournalStart, writeTimeoutMs: number): JournalWriter {
  let pendingHeader = start.kind === 'new' ? start.header : null;
  let seq = start.kind === 'new' ? 0 : start.nextSeq;
  // A segment is written in its header's version to its end: an older one continued gets only the lines its version has.
  let version = start.header.version;
  let sealed = false;
  const append = (line: Parameters<JournalStore['append']>[0]) => withinWriteLimit(store.append(line), writeTimeoutMs, "the journal's append");
  const write = async (line: Parameters<JournalStore['append']>[0]) => {
    if (sealed) return;
    if (pendingHeader) {
      const first = pendingHeader;
      pendingHeader = null;
      await append(first);
    }
    await append(line);
  };
  return {
    input: (input, effects) => write({ type: 'input', seq: seq++, input, effects: effects.map(effectDigest), hash: effectsHash(effects) }),
    toolStarted: (batchId, call) => write({ type: 'tool.started', batchId, toolCallId: call.id, at: now() }),
    toolFinished: (batchId, call, outcome) => write({ type: 'tool.finished', batchId, toolCallId: call.id, outcome, at: now() }),
    toolRefused: async (batchId, call, { reason, message }) => {
      if (recordsRefusals(version)) await write({ type: 'tool.refused', batchId, toolCallId: call.id, reason, message, at: now() });
    },
    open: async () => {
      if (!sealed && typeof store.open === 'function') await withinWriteLimit(store.open(), writeTimeoutMs, "the journal's open");
    },
    segmentVersion: () => version,
    segment(header) {
      version = header.version;
      // A header not written yet (no input since it was set) is replaced: a segment is never empty.
      pendingHeader = header;
      seq = 0;
    },
    seal() {
      sealed = true;
    },
    close: async () => {
      if (store.close) await withinWriteLimit(store.close(), writeTimeoutMs, "the journal's close");
    },
  };
}
