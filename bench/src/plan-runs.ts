/** What one probe of a loop measured: its time per model call, and making a fresh loop (untimed setup). */
export interface Probe {
  perCallMs: number;
  setupMs: number;
}

export interface RunPlan<K extends string> {
  /** Turns per timed run, per loop. */
  turns: Record<K, number>;
  warmup: number;
  runs: number;
}

/** A run should last at least this long, so that timing it is not mostly the clock. */
const TARGET_RUN_MS = 20;
const MAX_TURNS = 10;
/** Wall time the timed runs of one process may take, setup included (twenty processes in `pnpm bench`). */
const BUDGET_MS = 10_000;
const MIN_RUNS = 5;
const MAX_RUNS = 41;

/**
 * How many turns a run of each loop makes and how many runs there are, from the probes: fast
 * loops make up to 10 turns a run (a loop's first prompt then weighs little), slow ones one; all
 * loops make the same number of runs, as many as fit the budget, at least 5 (a median of 5).
 */
export function planRuns<K extends string>(probes: Record<K, Probe>, turnsPerCall = 2): RunPlan<K> {
  const ids = Object.keys(probes) as K[];
  const turns = {} as Record<K, number>;
  let round = 0;
  for (const id of ids) {
    const { perCallMs, setupMs } = probes[id];
    const turnMs = perCallMs * turnsPerCall;
    turns[id] = Math.min(MAX_TURNS, Math.max(1, Math.ceil(TARGET_RUN_MS / Math.max(turnMs, 1e-6))));
    round += turns[id] * turnMs + setupMs;
  }
  const runs = Math.min(MAX_RUNS, Math.max(MIN_RUNS, Math.floor(BUDGET_MS / Math.max(round, 1e-6))));
  const warmup = runs >= 21 ? 5 : runs >= 11 ? 2 : 1;
  return { turns, warmup, runs };
}
