/** What the benchmark measures; each has one row per session size. */
export const OPERATIONS = {
  open: 'open a session file',
  'open-floor': 'open a session file',
  context: 'build the context',
  'one-pass': 'one pass over the entries (the floor for growth)',
  prepare: 'prepare a compaction',
  decision: 'should-compact decision at a boundary',
  step: 'core `step`, per event',
  start: 'core `start` over the session',
  replay: 'replay throughput, after `start`',
  resume: 'resume a compacted session',
  'open-compacted': 'full open + context of that session',
  'memory-open': 'peak memory: open + context',
  'memory-held': 'heap holding the open session',
  'agent-call': 'shell overhead per model call (history in messages)',
} as const;

export type OperationId = keyof typeof OPERATIONS;

export type Unit = 'ms' | 'us' | 'MB' | 'events/s';

/** One row: Tiller's median beside the median of what it is compared with, measured in the same run. */
export interface Measurement {
  operation: OperationId;
  /** Entries in the session (for `agent-call`: messages in the agent's history). */
  size: number;
  unit: Unit;
  tiller: number;
  /** pi, or a floor such as plain parsing; absent when nothing compares. */
  reference?: { name: string; value: number };
}

/** Tiller's value over the reference's; undefined without a reference. */
export function ratioOf(m: Measurement): number | undefined {
  return m.reference ? m.tiller / m.reference.value : undefined;
}
