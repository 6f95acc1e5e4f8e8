/**
 * The overhead per model call of several agent loops at one history length, side by side: every
 * loop gets the same conversation, a model that answers at once and a tool that does nothing (see
 * instant-model.ts). Run by bench/run.ts in a process of its own per length and peer, as
 * `measure-agent.ts <messages> <loop,loop,...> <work dir>`.
 *
 * First each loop is probed: one turn to warm it up, one timed turn. Before each probe turn the
 * process prints `{"probing": id}`, after the probe `{"probed": id, "perCallMs": ...}`, one JSON object a line, so
 * that the parent can stop a loop that takes longer than its limit (it kills this process and
 * starts it again without that loop). The probes come before the warm-up, and the last loops
 * (the peers that may go over the limit) are probed first, so that a restart repeats little. Then
 * each timed run prompts a fresh loop (made just before the clock starts) for a few turns,
 * round-robin over the loops with each round starting one loop further on, and the sample is the
 * run's time over its model calls. Each fresh loop answers
 * its first prompt before the clock starts: what a loop does once over a history it was just
 * given (Tiller's token ledger, the first growth of its lists) is not a per-call cost, and that
 * first turn is timed on its own. Last line: `{"perCallMs": {id: [run, ...]}, "firstTurnMs": {id: [run, ...]}}`,
 * every timed run's figure in the order of the rounds.
 */
import type { MeasureOptions } from './measure.js';
import { measure } from './measure.js';
import { agentHistory } from './conversation.js';
import { CALLS_PER_TURN, type BenchLoop } from './instant-model.js';
import { isLoopId, loopFactory, type LoopId } from './loops.js';
import { planRuns, type Probe } from './plan-runs.js';

const [sizeArg, loopsArg, dir] = process.argv.slice(2);
const size = Number(sizeArg);
const ids = (loopsArg ?? '').split(',').filter(Boolean);
if (!Number.isInteger(size) || size < 0 || !dir || ids.length === 0 || !ids.every(isLoopId)) {
  throw new Error(`usage: measure-agent.ts <messages in the history> <loop,loop,...> <work dir>, got ${process.argv.slice(2).join(' ')}`);
}
const loops = ids as LoopId[];
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function turns(loop: BenchLoop, count: number): Promise<void> {
  for (let t = 0; t < count; t++) await loop.prompt(`question ${t}`);
}

/**
 * Runs of the shell before it reaches its steady speed: timed in windows of 50 runs from a fresh
 * process, it held near its best from about the 150th (see compare-shells.ts).
 */
const SHELL_WARM_UP_RUNS = 200;

/** Runs over an empty history first, discarded: otherwise the first loop timed also pays for compiling the others' code. */
async function warmUp(): Promise<void> {
  const factory = loopFactory(agentHistory(0), `${dir}/warm`);
  for (const [id, runs] of warmUpPlan(loops)) {
    for (let r = 0; r < runs; r++) {
      const loop = await factory.make(id);
      await turns(loop, 10);
      await loop.close?.();
    }
  }
}

/**
 * Which loops warm up, for how many runs. The durable agents run the shell too, but their turns
 * wait on the disk, so a process that times them and not the memory agent warms the shell with
 * the memory agent's runs, and their own code (the file store and journal) with a few of theirs.
 */
function warmUpPlan(timed: readonly LoopId[]): [LoopId, number][] {
  const durable = timed.includes('tiller-jsonl') || timed.includes('tiller-jsonl-empty');
  const shell: [LoopId, number][] = durable && !timed.includes('tiller') ? [['tiller', SHELL_WARM_UP_RUNS]] : [];
  return [...shell, ...timed.map((id): [LoopId, number] => [id, warmUpRuns(id)])];
}

function warmUpRuns(id: LoopId): number {
  switch (id) {
    // The two that take longest to reach their speed (pi-agent-core's runs are short).
    case 'tiller':
    case 'pi-agent-core':
      return SHELL_WARM_UP_RUNS;
    // The memory agent's code, warmed by its runs.
    case 'tiller-empty':
    case 'tiller-jsonl':
    case 'tiller-jsonl-empty':
    case 'ai-sdk':
    case 'langgraph':
    case 'langgraph-memory':
    case 'langgraph-sqlite':
      return 10;
    default: {
      const unknown: never = id;
      throw new TypeError(`unknown loop ${String(unknown)}`);
    }
  }
}

const factory = loopFactory(agentHistory(size), dir);
const probes: Partial<Record<LoopId, Probe>> = {};
for (const id of [...loops].reverse()) {
  const made = performance.now();
  const loop = await factory.make(id);
  const setupMs = performance.now() - made;
  say({ probing: id });
  await turns(loop, 1);
  say({ probing: id });
  const start = performance.now();
  await turns(loop, 1);
  const perCallMs = (performance.now() - start) / CALLS_PER_TURN;
  await loop.close?.();
  // Each timed run's loop answers one prompt before the clock starts: part of its setup.
  probes[id] = { perCallMs, setupMs: setupMs + perCallMs * CALLS_PER_TURN };
  say({ probed: id, perCallMs });
}

await warmUp();
const plan = planRuns(probes as Record<LoopId, Probe>, CALLS_PER_TURN);
const next: Partial<Record<LoopId, BenchLoop>> = {};
const firstTurns = Object.fromEntries(loops.map((id) => [id, [] as number[]])) as Record<LoopId, number[]>;
/** A fresh loop over the history that has answered its first prompt (timed into `firstTurns`). */
async function freshLoop(id: LoopId): Promise<BenchLoop> {
  const loop = await factory.make(id);
  const start = performance.now();
  await turns(loop, 1);
  firstTurns[id].push(performance.now() - start);
  return loop;
}
const tasks = Object.fromEntries(
  loops.map((id) => [
    id,
    async () => {
      // Warm-up runs come without a settle before them: they make their loop themselves.
      const loop = next[id] ?? (await factory.make(id));
      delete next[id];
      await turns(loop, plan.turns[id]);
      return loop;
    },
  ]),
) as Record<LoopId, () => Promise<BenchLoop>>;
const options: MeasureOptions<LoopId> = {
  warmup: plan.warmup,
  runs: plan.runs,
  // A fresh loop for each run, made and given its first prompt just before the clock starts, so
  // that every run begins at the same history length with what is done once per loop already
  // done, and right after the same kind of work whichever loop it is.
  settle: async (id) => {
    next[id] = await freshLoop(id);
  },
  // Which loop goes first moves on every round: otherwise each loop would always run right after
  // the same other one, and pay for its garbage (or its writes to the disk) in every pair.
  order: 'rotating',
  after: async (result) => (result as BenchLoop).close?.(),
};
const samples = await measure(tasks, options);
// Every run and every first turn, in the order of the rounds: the parent pairs each loop's run
// with the others' of the same round.
say({
  perCallMs: Object.fromEntries(loops.map((id) => [id, samples[id].map((ms) => ms / (plan.turns[id] * CALLS_PER_TURN))])),
  firstTurnMs: Object.fromEntries(loops.map((id) => [id, firstTurns[id]])),
});
