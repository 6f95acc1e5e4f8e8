import { ratioOf, type Measurement, type OperationId } from './measurement.js';
import { ONE_PASS } from './one-pass.js';

/** A goal applied to one row; `met` is undefined when the row's data cannot say. */
export interface Verdict {
  goal: string;
  met: boolean | undefined;
}

/** At 100k entries, building the context and preparing a compaction at least 10x faster than pi. */
const LARGE = 100_000;
/** How far above linear a tenfold longer session may go and still count as linear (noise, caches, GC). */
export const LINEAR_SLACK = 1.5;
/** "Flat" and "O(1)": the largest session costs at most this much more per call than the smallest. */
export const FLAT_SLACK = 2;

/** History lengths, in messages, from which the per-call goals against the peers apply. */
export const PEERS_FROM = 1_000;
export const PI_AGENT_CORE_FROM = 10_000;
/** "At least 10x faster": Tiller's time at most a tenth of the peer's. */
const TENFOLD = 0.1;

const within = (goal: string, met: boolean | undefined): Verdict => ({ goal, met });

function smallest(all: readonly Measurement[], operation: OperationId): Measurement | undefined {
  return all.filter((m) => m.operation === operation).sort((a, b) => a.size - b.size)[0];
}

function flat(m: Measurement, all: readonly Measurement[]): boolean | undefined {
  const base = smallest(all, m.operation);
  return base ? m.tiller <= FLAT_SLACK * base.tiller : undefined;
}

/**
 * `ratio <= limit`. A reference stopped at its limit is slower than its value, so the ratio is an
 * upper bound: under the limit it is met; above, this run cannot say.
 */
function atMost(m: Measurement, limit: number): boolean | undefined {
  const ratio = ratioOf(m);
  if (ratio === undefined) return undefined;
  if (ratio <= limit) return true;
  return m.reference?.overLimit ? undefined : false;
}

/** Tiller ahead of the reference: its time below the reference's (for a rate, its rate above). */
const ahead = (m: Measurement) => {
  const ratio = ratioOf(m);
  return ratio === undefined ? undefined : ratio < 1 || (m.reference?.overLimit ? undefined : false);
};

/** The goals for a row, each with whether this run met it; empty for rows without a goal. */
export function verdictsOf(m: Measurement, all: readonly Measurement[]): Verdict[] {
  const ratio = ratioOf(m);
  const flatGoal = `flat: at most ${FLAT_SLACK}x the smallest session's`;
  switch (m.operation) {
    case 'open-floor':
      return [within('within 1.1x of plain parsing', ratio === undefined ? undefined : ratio <= 1.1)];
    case 'context':
    case 'prepare':
      if (m.size < LARGE) return [];
      return [within('at least 10x faster than pi', ratio === undefined ? undefined : ratio <= 0.1)];
    case 'decision':
      return [within(`O(1), ${flatGoal}`, flat(m, all))];
    case 'step':
      return [within('at most 2x a bare transition', ratio === undefined ? undefined : ratio <= 2), within(flatGoal, flat(m, all))];
    case 'replay':
      return [within('at most 2x a bare transition', ratio === undefined ? undefined : ratio <= 2)];
    case 'resume':
      return [within('faster than a full parse', ratio === undefined ? undefined : ratio < 1)];
    case 'agent-call':
      return m.size >= PI_AGENT_CORE_FROM ? [within('ahead of pi-agent-core', ahead(m))] : [];
    // Flatness, of the memory session and of the durable one: judged against the same agent over
    // an empty history in the same process, since one process can run twice as fast as the next
    // (docs/performance.md).
    case 'agent-call-flat':
    case 'agent-call-durable-flat':
      return [within(`flat: at most ${FLAT_SLACK}x its own over an empty history`, atMost(m, FLAT_SLACK))];
    case 'agent-call-peers':
    case 'agent-call-durable':
      return m.size >= PEERS_FROM ? [within('at least 10x faster', atMost(m, TENFOLD))] : [];
    case 'agents-throughput':
      return [within('ahead in turns per second', ahead(m))];
    case 'open':
    case 'one-pass':
    case 'start':
    case 'open-compacted':
    case 'memory-open':
    case 'memory-held':
    case 'agents-memory':
    case 'agent-first-turn':
    case 'restate-round':
    case 'stream-deltas':
    case 'turn-bytes':
    case 'turn-bytes-session':
      return [];
    default: {
      const unknown: never = m.operation;
      throw new TypeError(`no goal rule for operation ${String(unknown)}`);
    }
  }
}

/** Growth from one session size to a ten times longer one, for each side; the linear-scaling goal. */
export interface Scaling {
  operation: OperationId;
  from: number;
  to: number;
  tiller: number;
  reference?: { name: string; value: number };
  verdict: Verdict;
}

/**
 * Linear growth, judged against what the machine does at these sizes: a tenfold longer session may
 * cost at most `LINEAR_SLACK` times ten, or times the growth of one plain pass over its entries when
 * that pass itself grows faster (10k entries fit in the processor's caches, 100k do not, so touching
 * each entry once already costs more than ten times as much). Without a measured pass, ten.
 */
export function linearLimit(all: readonly Measurement[], from: number, to: number): { limit: number; goal: string } {
  const pass = (size: number) => all.find((m) => m.operation === 'one-pass' && m.size === size)?.tiller;
  const small = pass(from);
  const large = pass(to);
  return limitFor(to / from, small && large ? large / small : undefined);
}

function limitFor(tenfold: number, passGrowth: number | undefined): { limit: number; goal: string } {
  if (passGrowth === undefined || passGrowth <= tenfold) return { limit: tenfold * LINEAR_SLACK, goal: `linear: at most ${tenfold * LINEAR_SLACK}x` };
  const limit = passGrowth * LINEAR_SLACK;
  return { limit, goal: `linear: at most ${LINEAR_SLACK}x one pass's growth (${formatGrowth(passGrowth)}), ${formatGrowth(limit)}` };
}

const formatGrowth = (x: number) => `${x.toFixed(1)}x`;

/** For every timed operation measured at both sizes: how much longer the larger session took. */
export function scalingOf(all: readonly Measurement[], from: number, to: number): Scaling[] {
  const out: Scaling[] = [];
  const shared = linearLimit(all, from, to);
  for (const large of all) {
    if (large.size !== to || large.operation === 'one-pass' || (large.unit !== 'ms' && large.unit !== 'us')) continue;
    const small = all.find((m) => m.operation === large.operation && m.size === from && m.reference?.name === large.reference?.name);
    if (!small) continue;
    const tiller = large.tiller / small.tiller;
    const bounded = large.reference?.overLimit || small.reference?.overLimit;
    const referenceGrowth = large.reference && small.reference && !bounded ? large.reference.value / small.reference.value : undefined;
    // A row timed beside its own pass over the entries is judged by that pass, in its own process.
    const { limit, goal } = large.reference?.name === ONE_PASS ? limitFor(to / from, referenceGrowth) : shared;
    const row: Scaling = { operation: large.operation, from, to, tiller, verdict: within(goal, tiller <= limit) };
    if (large.reference && referenceGrowth !== undefined) row.reference = { name: large.reference.name, value: referenceGrowth };
    out.push(row);
  }
  return out;
}
