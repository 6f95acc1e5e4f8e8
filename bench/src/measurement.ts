/** What the benchmark measures; each has one row per session size (and reference). */
export const OPERATIONS = {
  open: 'open a session file',
  'open-floor': 'open a session file',
  context: 'build the context',
  'one-pass': 'one pass over the entries (the floor for growth)',
  prepare: 'prepare a compaction',
  decision: 'should-compact decision at a boundary',
  step: 'core `step`, per event',
  start: 'core `start` over the session',
  replay: 'replay, per event, after `start`',
  resume: 'resume a compacted session',
  'open-compacted': 'full open + context of that session',
  'memory-open': 'peak memory: open + context',
  'memory-held': 'heap holding the open session',
  'agent-call': 'shell overhead per model call (history in messages)',
  'agent-call-flat': 'shell overhead per model call, beside the same shell over an empty history in one process (history in messages)',
  'agent-first-turn': "a fresh agent's first turn over the history (history in messages)",
  'agent-call-peers': 'overhead per model call beside the AI SDK and LangGraph (history in messages)',
  'agent-call-durable': "durable overhead per model call: JSONL session (fsync 'batch') + file journal (history in messages)",
  'agent-call-durable-flat': "durable overhead per model call, beside the same durable agent over an empty history in one process (history in messages)",
  'restate-round': 'durable turn on Restate (fsync on): time per tool round (tool rounds in the turn)',
  'agents-throughput': 'agents in one process, all at once: turns per second (agents)',
  'agents-memory': 'agents in one process: heap per agent after their turns (agents)',
  'stream-deltas': 'streaming: text deltas per second to a subscriber (deltas per call)',
  'turn-bytes': 'bytes written per turn: session + journal (history in messages)',
  'turn-bytes-session': 'bytes written per turn: the session file alone (history in messages)',
} as const;

export type OperationId = keyof typeof OPERATIONS;

export type Unit = 'ms' | 'us' | 'MB' | 'KB' | 'events/s' | 'turns/s' | 'deltas/s';

/** Units where more is better: their ratio is the reference's value over Tiller's, so below 1 still means Tiller is ahead. */
const RATES: ReadonlySet<Unit> = new Set(['events/s', 'turns/s', 'deltas/s']);

export function isRate(unit: Unit): boolean {
  return RATES.has(unit);
}

/** One row: Tiller's median beside the median of what it is compared with, measured in the same run. */
export interface Measurement {
  operation: OperationId;
  /** Entries in the session (for the agent rows: messages in the history, agents, or deltas per call). */
  size: number;
  unit: Unit;
  tiller: number;
  /**
   * pi, a peer, or a floor such as plain parsing; absent when nothing compares. `overLimit`: the
   * reference took longer than `value` per call and was stopped there, so `value` is a lower bound.
   */
  reference?: { name: string; value: number; overLimit?: boolean };
  /**
   * For times taken in pairs (the agent rows: runs of the same round, one after the other): the
   * median of the pairs' ratios, Tiller's over the reference's, which a slow moment of the machine
   * shared by both runs of a pair does not move. Without it, `ratioOf` takes the ratio of the medians.
   */
  ratio?: number;
}

/**
 * Tiller's cost over the reference's (for rates: the reference's rate over Tiller's), so below 1
 * Tiller is faster or smaller: the pairs' ratio where the runs were paired, else the ratio of the
 * medians; undefined without a reference. Over the limit, an upper bound.
 */
export function ratioOf(m: Measurement): number | undefined {
  if (!m.reference) return undefined;
  if (m.ratio !== undefined) return m.ratio;
  return isRate(m.unit) ? m.reference.value / m.tiller : m.tiller / m.reference.value;
}
