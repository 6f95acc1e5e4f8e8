/**
 * The shell's overhead per model call beside another build of Tiller (an earlier commit, a
 * branch), both in this one process, their runs taking turns:
 *
 *   pnpm compare-shells <other checkout> [messages ...]
 *
 * The other checkout must be built so that its packages load from JavaScript (`pnpm exec tsc -b`
 * there, as `pnpm bench` does here), and its `bench/src/instant-agents.ts` must export
 * `tillerAgent(entries)`, as this one does. Both agents get the same history (this build's
 * entries), the instant model and the no-op tool. Each run makes a fresh agent, lets it answer
 * its first prompt untimed, then times 10 turns; the figure is the time over its model calls.
 * In separate processes the same agent can run twice as fast in one as in the next, so the
 * comparison is only made in one process (see docs/performance.md, "Against an earlier shell").
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Entry } from '@tiller/core';
import { agentHistory } from './src/conversation.js';
import { formatNumber, formatRatio, formatSize } from './src/format-table.js';
import { CALLS_PER_TURN } from './src/instant-model.js';
import { tillerAgent } from './src/instant-agents.js';
import { pairedRuns } from './src/paired-runs.js';

type MakeAgent = (entries: readonly Entry[]) => { prompt(text: string): Promise<unknown>; close(): Promise<void> };

const TIMED_TURNS = 10;
/** Pairs at each history length: fewer where a run is long. */
const pairsAt = (messages: number) => (messages >= 100_000 ? 11 : messages >= 10_000 ? 21 : 41);
/**
 * Discarded pairs over an empty history first. The rebuilt shell reaches its steady speed after
 * about 150 runs (3,000 model calls): timed in windows of 50 runs from a fresh process, its median
 * went 0.44, 0.21, 0.12 ms a call, then held near 0.08.
 */
const WARM_UP_PAIRS = 200;

const [otherArg, ...sizeArgs] = process.argv.slice(2);
if (!otherArg) throw new Error('usage: pnpm compare-shells <other checkout> [messages ...]');
const otherAgents = resolve(otherArg, 'bench', 'src', 'instant-agents.ts');
if (!existsSync(otherAgents)) throw new Error(`compare-shells: ${otherAgents} does not exist; give the root of another Tiller checkout`);
const sizes = sizeArgs.length > 0 ? sizeArgs.map(Number) : [0, 1_000, 10_000, 100_000];
const badSize = sizeArgs.find((arg) => !Number.isInteger(Number(arg)) || Number(arg) < 0);
if (badSize !== undefined) throw new Error(`compare-shells: a history length is a whole number of messages, got "${badSize}"`);

const other = (await import(pathToFileURL(otherAgents).href)) as { tillerAgent?: MakeAgent };
if (typeof other.tillerAgent !== 'function') throw new Error(`compare-shells: ${otherAgents} exports no tillerAgent(entries)`);
const theirAgent = other.tillerAgent;
const ourAgent = tillerAgent as MakeAgent;

/** One run: a fresh agent over `entries`, its first prompt untimed, then ms per model call over the timed turns. */
async function timedRun(make: MakeAgent, entries: readonly Entry[]): Promise<number> {
  const agent = make(entries);
  await agent.prompt('first');
  const start = performance.now();
  for (let turn = 0; turn < TIMED_TURNS; turn++) await agent.prompt(`question ${turn}`);
  const perCall = (performance.now() - start) / (TIMED_TURNS * CALLS_PER_TURN);
  await agent.close();
  return perCall;
}

const empty = agentHistory(0).entries;
await pairedRuns(() => timedRun(ourAgent, empty), () => timedRun(theirAgent, empty), WARM_UP_PAIRS);
const lines = ['| history (messages) | this build | the other | this over the other (median of the pairs) |', '| --- | --- | --- | --- |'];
for (const size of sizes) {
  const { entries } = agentHistory(size);
  const result = await pairedRuns(() => timedRun(ourAgent, entries), () => timedRun(theirAgent, entries), pairsAt(size));
  lines.push(`| ${formatSize(size)} | ${formatNumber(result.ours)} ms | ${formatNumber(result.theirs)} ms | ${formatRatio(result.ratio)} |`);
  process.stderr.write(`${lines.at(-1)}\n`);
}
process.stdout.write(`${lines.join('\n')}\n`);
