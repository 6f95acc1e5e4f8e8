/**
 * `pnpm --filter @tiller/restate bench`: what a durable turn costs beside the same turn in the
 * in-process shell, in one run. Both get the same agent: a model that answers at once (a function
 * of the request, so it plays the same on any worker) and a tool that returns at once, one call a
 * round. Restate runs from its npm package with fsync on (its default), the worker in this process.
 * Each sample is one turn of ROUNDS tool rounds on a fresh session; the medians are reported as
 * time per tool round, core steps per second, and the ratio of the two sides.
 *
 * With `--json` it writes no RESULTS.md and prints `{rounds, runs, restateMsPerRound,
 * shellMsPerRound}` instead: how `pnpm bench` takes the row for its results page.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message } from '@tiller/core';
import { createAgent, defineTool, memoryJournal } from '@tiller/shell';
import { scriptedModel, type ScriptedCall } from '@tiller/testing';
import { z } from 'zod';
import { connect, serve, startLocalServer } from '../src/index.js';

const ROUNDS = 20;
const WARMUP = 3;
const RUNS = Number(process.env.DURABLE_BENCH_RUNS ?? 15);
/** Inputs the core steps in such a turn: the start, two per boundary and call, one per tool batch. */
const STEPS = 1 + 2 * (ROUNDS + 1) + ROUNDS;

function agentOptions() {
  const reply = (request: { messages: Message[] }): ScriptedCall => {
    const round = request.messages.filter((m) => m.role === 'assistant').length;
    return round >= ROUNDS ? { text: 'done' } : { toolCalls: [{ id: `r${round}`, name: 'noop', args: {} }] };
  };
  const noop = defineTool({ name: 'noop', description: 'Does nothing.', input: z.object({}), execute: () => 'ok' });
  return { model: scriptedModel(Array.from({ length: 100_000 }, () => reply)), tools: [noop], limits: { maxIterations: ROUNDS + 1 } };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function sample(runs: number, turn: (i: number) => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + runs; i++) {
    const began = performance.now();
    await turn(i);
    if (i >= WARMUP) times.push(performance.now() - began);
  }
  return median(times);
}

const log = (text: string) => process.stderr.write(`${text}\n`);

log('timing the in-process shell…');
let checked = false;
const shellMs = await sample(RUNS * 4, async () => {
  const journal = memoryJournal();
  const agent = createAgent({ ...agentOptions(), journal });
  const outcome = await agent.prompt('go');
  if (outcome.status !== 'completed' || outcome.iterations !== ROUNDS) throw new Error(`the shell's turn ended ${JSON.stringify(outcome)}`);
  if (!checked) {
    const inputs = journal.lines.filter((line) => line.type === 'input').length;
    if (inputs !== STEPS) throw new Error(`expected ${STEPS} core steps a turn, the shell journaled ${inputs}`);
    checked = true;
  }
});

log('starting Restate (fsync on) and a worker…');
const server = await startLocalServer({ fsync: true });
const worker = await serve({ ...agentOptions(), name: 'BenchSession' });
let restateMs: number;
try {
  await server.register(worker.url);
  const client = connect({ ingressUrl: server.ingressUrl, name: 'BenchSession' });
  log('timing durable turns on Restate…');
  restateMs = await sample(RUNS, async (i) => {
    const outcome = await client.session(`bench-${i}`).prompt('go');
    if (outcome.status !== 'completed' || outcome.iterations !== ROUNDS) throw new Error(`the durable turn ended ${JSON.stringify(outcome)}`);
  });
} finally {
  await worker.close();
  await server.stop();
}

if (process.argv.includes('--json')) {
  process.stdout.write(JSON.stringify({ rounds: ROUNDS, runs: RUNS, restateMsPerRound: restateMs / ROUNDS, shellMsPerRound: shellMs / ROUNDS }));
} else {
  const fmt = (n: number, digits = 2) => n.toFixed(digits);
  const rows = [
    ['per tool round (ms)', fmt(restateMs / ROUNDS), fmt(shellMs / ROUNDS), `${fmt(restateMs / shellMs, 1)}x`],
    ['core steps per second', fmt((STEPS * 1000) / restateMs, 0), fmt((STEPS * 1000) / shellMs, 0), `${fmt(shellMs / restateMs, 3)}x`],
    ['overhead per tool round over the shell (ms)', fmt((restateMs - shellMs) / ROUNDS), '', ''],
  ];
  const markdown = [
    `# Durable turns: Restate beside the in-process shell`,
    '',
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.versions.node}, Restate server 1.7.12 (fsync on), SDK 1.17.2.`,
    `One turn of ${ROUNDS} tool rounds (${STEPS} core steps), an instant model and an instant tool; median of ${RUNS} turns on Restate, ${RUNS * 4} in the shell.`,
    '',
    '| measure | Restate | shell | Restate / shell |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ].join('\n');
  writeFileSync(join(dirname(fileURLToPath(import.meta.url)), 'RESULTS.md'), markdown);
  process.stdout.write(markdown);
}
