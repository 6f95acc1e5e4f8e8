/**
 * Many agents in one process: `measure-scale.ts <loop> <agents> <turns>`, run by bench/run.ts
 * with --expose-gc in a fresh process per loop and repetition, the loops taking turns. It makes
 * `agents` fresh agents over an empty conversation and prompts all of them at once, each for
 * `turns` turns (two model calls and one tool run a turn, as in the per-call rows), timing from
 * the first prompt to the last answer. Prints `{turnsPerSecond, heapPerAgentKB}`: the rate, and
 * the heap the agents hold after their turns (after a full collection, while they are still
 * referenced) over their number.
 */
import { agentHistory } from './conversation.js';
import type { BenchLoop } from './instant-model.js';
import { isLoopId, loopFactory } from './loops.js';

const [loopArg, agentsArg, turnsArg] = process.argv.slice(2);
const agents = Number(agentsArg);
const turns = Number(turnsArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !loopArg || !isLoopId(loopArg) || ![agents, turns].every((n) => Number.isInteger(n) && n > 0)) {
  throw new Error(`usage: node --expose-gc measure-scale.ts <loop> <agents> <turns>, got ${process.argv.slice(2).join(' ')}`);
}
const collect = gc;
const id = loopArg;
const factory = loopFactory(agentHistory(0), '/nonexistent-no-files-for-memory-loops');

async function fleet(count: number): Promise<BenchLoop[]> {
  const out: BenchLoop[] = [];
  for (let i = 0; i < count; i++) out.push(await factory.make(id));
  return out;
}

async function runAll(loops: readonly BenchLoop[]): Promise<number> {
  const start = performance.now();
  await Promise.all(
    loops.map(async (loop) => {
      for (let t = 0; t < turns; t++) await loop.prompt(`question ${t}`);
    }),
  );
  return performance.now() - start;
}

/** In a function of its own, so that nothing of the warm-up's fleet is still on this frame when the heap is read. */
async function measureFleet(): Promise<{ turnsPerSecond: number; heapPerAgentKB: number }> {
  collect();
  const before = process.memoryUsage().heapUsed;
  const loops = await fleet(agents);
  const ms = await runAll(loops);
  // With an instant model the whole run is one job of microtasks; the engine keeps every object a
  // WeakRef was made for (AbortSignal.any makes them) until that job ends. Those are not held by
  // the agents, so the heap is read after the job, in a macrotask.
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  const held = process.memoryUsage().heapUsed - before;
  // Still referenced here, so the collection above could not take them.
  if (loops.length !== agents) throw new Error('lost agents');
  return { turnsPerSecond: (agents * turns) / (ms / 1000), heapPerAgentKB: held / agents / 1024 };
}

async function warmUp(): Promise<void> {
  // A tenth of the fleet first, discarded: the code is compiled before the timed run.
  await runAll(await fleet(Math.max(1, Math.floor(agents / 10))));
}

await warmUp();
process.stdout.write(JSON.stringify(await measureFleet()));
