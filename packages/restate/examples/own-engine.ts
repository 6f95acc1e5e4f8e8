/**
 * A durable engine of your own, on the seam the shell gives durable engines: `driveTurn` steps
 * the core and routes every effect; the engine runs each effect's work inside a step of its own
 * with the shell's `runModelCall`, `planToolBatch` and `runToolCall`. Here a step is a result
 * kept in a journal by name (what Temporal's activities, Inngest's `step.run` or DBOS's steps
 * give); running the turn again over the same journal replays it: no tool runs twice, no model
 * call is made again, and the log comes out the same. Run it with
 * `node --conditions=@tiller/source --import tsx packages/restate/examples/own-engine.ts`.
 */
import { type Entry, start, type TurnEvent } from '@tiller/core';
import { defineTool, planToolBatch, resolveLimits, runModelCall, runToolCall } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { z } from 'zod';
import { driveTurn, type TurnEngine } from '../src/index.js';

let runs = 0;
const weather = defineTool({
  name: 'weather',
  description: 'Today\'s weather in a city.',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => {
    runs++;
    return `${city}: 18 °C, clear`;
  },
});
const model = scriptedModel([
  { toolCalls: [{ id: 'w-1', name: 'weather', args: { city: 'Lyon' } }, { id: 'w-2', name: 'weather', args: { city: 'Turin' } }] },
  { text: 'Lyon and Turin are both clear, 18 °C.' },
]);
const tools = [weather];
const limits = resolveLimits({ maxToolConcurrency: 2 }, 'own-engine');

/** The engine's journal: a step's result by its name. Only plain data goes in. */
const journal = new Map<string, unknown>();
async function durableStep<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!journal.has(name)) journal.set(name, JSON.parse(JSON.stringify(await work())));
  return journal.get(name) as T;
}

function journalEngine(log: Entry[]): TurnEngine {
  const signal = new AbortController().signal;
  let clock = 0;
  const now = () => durableStep(`clock ${clock++}`, async () => new Date().toISOString());
  return {
    async perform(effect): Promise<TurnEvent> {
      switch (effect.type) {
        case 'maybe_compact':
          // No compactor here; a real engine runs one with the shell's runCompaction in a step.
          return { type: 'compaction.done', id: effect.id, at: await now(), meta: { compacted: false }, appended: [] };
        case 'call_llm':
          return durableStep(`model ${effect.id}`, () => runModelCall(effect, { model, tools, limits, signal }));
        case 'run_tools': {
          const plan = await durableStep(`plan ${effect.id}`, () => planToolBatch(effect, { tools, limits, signal }));
          if (plan.kind === 'ask') return { type: 'approval.needed', id: effect.id, toolCallIds: plan.toolCallIds, at: await now() };
          // One step per call, at most `plan.concurrency` at a time. (Where a crash between a call's
          // start and its result may have left it half done, settleInterruptedCalls from
          // @tiller/core decides whether it runs again: see restate's durable-tools.ts.)
          const results = plan.calls.map((planned) => (planned.kind === 'refused' ? planned.outcome : null));
          const toRun = plan.calls.flatMap((planned, i) => (planned.kind === 'run' ? [{ i, call: planned.call }] : []));
          for (let from = 0; from < toRun.length; from += plan.concurrency) {
            const wave = toRun.slice(from, from + plan.concurrency);
            await Promise.all(wave.map(async ({ i, call }) => (results[i] = await durableStep(`tool ${call.id}`, () => runToolCall(call, { tools, limits, signal })))));
          }
          return { type: 'tools.done', id: effect.id, results: results.map((r) => r!), at: await now() };
        }
        default: {
          const unknown: never = effect;
          throw new TypeError(`unknown effect ${JSON.stringify(unknown)}`);
        }
      }
    },
    takeMessages: async () => [],
    awaitApproval: async () => ({ kind: 'timeout' }),
    approvalParked() {},
    // Idempotent by entry id: a replay persists the same entries again.
    persist(entries) {
      for (const entry of entries) if (!log.some((e) => e.id === entry.id)) log.push(entry);
    },
    emit() {},
    now,
    cancellation: async () => null,
  };
}

async function runTurn(): Promise<Entry[]> {
  const log: Entry[] = [];
  const at = await durableStep('turn start', async () => new Date().toISOString());
  const { outcome } = await driveTurn({
    snapshot: start({ maxIterations: limits.maxIterations, entries: [] }),
    input: { type: 'turn.start', turnId: 'weather-1', message: { role: 'user', content: 'Weather in Lyon and Turin?' }, at },
    engine: journalEngine(log),
  });
  console.log(`${outcome.status} after ${outcome.iterations} tool round(s); tools ran ${runs} times; model calls ${model.requests.length}; journal steps ${journal.size}`);
  return log;
}

const first = await runTurn();
const replayed = await runTurn();
console.log(`replayed log is the same: ${JSON.stringify(replayed) === JSON.stringify(first)}`);
