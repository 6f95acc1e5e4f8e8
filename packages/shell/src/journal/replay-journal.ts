import { type Effect, type Entry, start, step, type TurnSnapshot } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import { z } from 'zod';
import { AgentOptionsError } from '../errors/agent-options-error.js';
import { JournalError } from '../errors/journal-error.js';
import { effectDigest, effectsHash } from '@tiller/core';
import { type JournalHeader, type JournalInput, type JournalLine, journalSegments, versionRefusal } from './journal-format.js';

/** Where a replay first differs from what the journal recorded. */
export interface JournalDivergence {
  /** The segment (0-based) the input is in. */
  segment: number;
  seq: number;
  inputType: string;
  /** The recorded digests, and the replay's: equal when only the content differs (then the hashes tell). */
  expected: string[];
  actual: string[];
}

export interface JournalReplay {
  /** The last segment's header. */
  header: JournalHeader;
  /** The snapshot the last segment's inputs lead to. */
  snapshot: TurnSnapshot;
  /** Every effect of every step of the last segment, in order. */
  effects: Effect[];
  /** How many inputs were replayed, over every segment checked. */
  inputs: number;
  /** How many segments were replayed and checked. */
  segments: number;
  divergence: JournalDivergence | null;
}

export interface ReplayJournalOptions {
  /**
   * The session the journal was written with: each segment is replayed from the path it started
   * on. Without it, a segment that started on a non-empty session cannot be replayed (an error
   * says so) unless it is the last and `base` is given.
   */
  session?: SessionLog | undefined;
  /** The path the last segment started from, when no session is given. */
  base?: readonly Entry[] | undefined;
  /** `all` (default) replays and checks every segment; `last` only the last one (what a resume needs). */
  segments?: 'all' | 'last' | undefined;
}

const ReplayOptions = z.strictObject({
  session: z
    .custom<SessionLog>((value) => typeof (value as SessionLog | undefined)?.path === 'function' && typeof (value as SessionLog).has === 'function', {
      message: 'expected a SessionLog (createSessionLog(store))',
    })
    .optional(),
  base: z.array(z.custom<Entry>((value) => typeof value === 'object' && value !== null && typeof (value as Entry).id === 'string', { message: 'expected an entry' })).optional(),
  segments: z.enum(['all', 'last']).optional(),
});

/**
 * Rebuilds the turns of a journal: every recorded input through `step`, with no model and no
 * tool, segment by segment. A step whose effects differ from the recorded ones, in any part of
 * their content, is the divergence (the first one is reported).
 */
export function replayJournal(journal: readonly JournalLine[], options: ReplayJournalOptions = {}): JournalReplay {
  const checked = ReplayOptions.safeParse(options);
  if (!checked.success) throw new AgentOptionsError(`replayJournal: invalid options:\n${z.prettifyError(checked.error)}`);
  const all = journalSegments(journal);
  if (all.length === 0) throw new JournalError('replayJournal: the journal has no header line');
  // Lines a store handed back without parseJournal (a store of its own, lines kept in memory) are
  // checked here: a segment of another version would replay with today's core and mislead.
  for (const [index, { header }] of all.entries()) {
    const refused = versionRefusal(header, `the journal's segment ${index + 1} (of ${header.createdAt})`);
    if (refused) throw new JournalError(refused);
  }
  const segments = options.segments === 'last' ? all.slice(-1) : all;
  let divergence: JournalDivergence | null = null;
  let inputs = 0;
  let last: { snapshot: TurnSnapshot; effects: Effect[] } | undefined;
  for (const [index, { header, lines }] of segments.entries()) {
    const isLast = index === segments.length - 1;
    let snapshot = start({ maxIterations: header.maxIterations, entries: [...baseOf(header, options, isLast)] });
    const effects: Effect[] = [];
    const segment = all.indexOf(segments[index]!);
    for (const line of lines) {
      if (line.type !== 'input') continue;
      const { result, hash } = replayInput(snapshot, line, `the journal's segment ${segment + 1} (of ${header.createdAt})`);
      snapshot = result.snapshot;
      if (isLast) effects.push(...result.effects);
      inputs += 1;
      if (!divergence && hash !== line.hash) {
        divergence = { segment, seq: line.seq, inputType: line.input.type, expected: line.effects, actual: result.effects.map(effectDigest) };
      }
    }
    last = { snapshot, effects };
  }
  return { header: segments.at(-1)!.header, snapshot: last!.snapshot, effects: last!.effects, inputs, segments: segments.length, divergence };
}

/**
 * One recorded input through `step`, and the hash of its effects. JSON.parse reads values nested
 * far deeper than JSON.stringify (the hash, and every writer) can go: such a line was never
 * written by Tiller, and its stack overflow is told as a `JournalError` naming the input.
 */
function replayInput(snapshot: TurnSnapshot, line: JournalInput, where: string): { result: ReturnType<typeof step>; hash: string } {
  try {
    const result = step(snapshot, line.input);
    return { result, hash: effectsHash(result.effects) };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new JournalError(`${where}: input ${line.seq} (${line.input.type}) cannot be replayed: it nests too deep (${error.message})`, { cause: error });
  }
}

function baseOf(header: JournalHeader, options: ReplayJournalOptions, isLast: boolean): readonly Entry[] {
  const given = isLast ? options.base : undefined;
  const { session } = options;
  if (!given && session && header.baseLeafId !== null && !session.has(header.baseLeafId)) {
    // A journal of another session, or one the session lost entries of.
    throw new JournalError(
      `the journal's segment of ${header.createdAt} started from entry ${JSON.stringify(header.baseLeafId)}, which the session given does not have: pass the session it was written with`,
    );
  }
  const base = given ?? (session && header.baseLeafId !== null ? session.path(header.baseLeafId) : []);
  const last = base.at(-1)?.id ?? null;
  if (last !== header.baseLeafId || base.length !== header.baseSize) {
    throw new JournalError(
      `the journal's segment of ${header.createdAt} started from entry ${JSON.stringify(header.baseLeafId)} (a path of ${header.baseSize} entries), ` +
        `but the base given ends at ${JSON.stringify(last)} (${base.length} entries): pass the session it was written with`,
    );
  }
  return base;
}
