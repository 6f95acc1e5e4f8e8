import { type Effect, type Entry, start, step, type TurnSnapshot } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import { JournalError } from '../errors/journal-error.js';
import { effectDigest, type JournalHeader, type JournalLine, lastSegment } from './journal-format.js';

/** Where a replay first differs from what the journal recorded. */
export interface JournalDivergence {
  seq: number;
  inputType: string;
  expected: string[];
  actual: string[];
}

export interface JournalReplay {
  header: JournalHeader;
  snapshot: TurnSnapshot;
  /** Every effect of every step, in order. */
  effects: Effect[];
  /** How many inputs were replayed. */
  inputs: number;
  divergence: JournalDivergence | null;
}

export interface ReplayJournalOptions {
  /** The session path the segment started from; or the session, which gives it. Not needed when the segment began on an empty session. */
  base?: readonly Entry[] | undefined;
  session?: SessionLog | undefined;
}

/**
 * Rebuilds the turn from the last segment of a journal: every recorded input through `step`, with
 * no model and no tool. Reports the first input whose effects differ from the recorded ones.
 */
export function replayJournal(journal: readonly JournalLine[], options: ReplayJournalOptions = {}): JournalReplay {
  const { header, lines } = lastSegment(journal);
  const base = baseOf(header, options);
  let snapshot = start({ maxIterations: header.maxIterations, entries: [...base] });
  const effects: Effect[] = [];
  let divergence: JournalDivergence | null = null;
  let inputs = 0;
  for (const line of lines) {
    if (line.type !== 'input') continue;
    const result = step(snapshot, line.input);
    snapshot = result.snapshot;
    effects.push(...result.effects);
    inputs += 1;
    if (!divergence) {
      const actual = result.effects.map(effectDigest);
      if (actual.length !== line.effects.length || actual.some((d, i) => d !== line.effects[i])) {
        divergence = { seq: line.seq, inputType: line.input.type, expected: line.effects, actual };
      }
    }
  }
  return { header, snapshot, effects, inputs, divergence };
}

function baseOf(header: JournalHeader, options: ReplayJournalOptions): readonly Entry[] {
  const base = options.base ?? (options.session && header.baseLeafId !== null ? options.session.path(header.baseLeafId) : []);
  const last = base.at(-1)?.id ?? null;
  if (last !== header.baseLeafId || base.length !== header.baseSize) {
    throw new JournalError(
      `the journal started from entry ${JSON.stringify(header.baseLeafId)} (a path of ${header.baseSize} entries), ` +
        `but the base given ends at ${JSON.stringify(last)} (${base.length} entries): pass the session it was written with`,
    );
  }
  return base;
}
