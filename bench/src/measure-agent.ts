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
 * each timed run prompts a fresh loop (made before the clock starts) for a few turns, round-robin
 * over the loops, and the sample is the run's time over its model calls. Each fresh loop answers
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

/** Runs over an empty history first, discarded: otherwise the first loop timed also pays for compiling the others' code. */
async function warmUp(): Promise<void> {
  const factory = loopFactory(agentHistory(0), `${dir}/warm`);
  for (const id of loops) {
    // The shell, with the core's machine behind it, takes longest to warm up. The durable agent runs
    // the same shell (warmed by the memory agent's runs) and its turns wait on the disk: 10 will do.
    const runs = id === 'tiller' || id === 'pi-agent-core' ? 100 : 10;
    for (let r = 0; r < runs; r++) {
      const loop = await factory.make(id);
      await turns(loop, 10);
      await loop.close?.();
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
const options: MeasureOptions = {
  warmup: plan.warmup,
  runs: plan.runs,
  // A fresh loop per run, made and given its first prompt before the clock starts, so every run
  // begins at the same history length with what is done once per loop already done.
  settle: async () => {
    for (const id of loops) next[id] ??= await freshLoop(id);
  },
  after: async (result) => (result as BenchLoop).close?.(),
};
const samples = await measure(tasks, options);
for (const id of loops) await next[id]?.close?.();
// Every run, in the order of the rounds: the parent pairs each loop's run with the others' of the same round.
say({
  perCallMs: Object.fromEntries(loops.map((id) => [id, samples[id].map((ms) => ms / (plan.turns[id] * CALLS_PER_TURN))])),
  // A loop's next fresh loop is made as soon as its run has taken the last one, so every loop but
  // the last has one more first turn than it has runs (made for a run that never came): dropped.
  firstTurnMs: Object.fromEntries(loops.map((id) => [id, firstTurns[id].slice(0, plan.runs)])),
});
