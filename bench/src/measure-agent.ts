/**
 * The shell's own overhead per model call beside pi-agent-core's, at one history length: both
 * agents get the same conversation, a model that answers at once and a tool that does nothing
 * (see instant-agents.ts). Each timed run prompts a fresh agent over the history for a few turns
 * (two model calls each), from the first prompt until the last one resolves; the sample is that
 * time over the number of model calls. Run by bench/run.ts in a process of its own per length;
 * prints the row as JSON.
 */
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type { Entry } from '@tiller/core';
import type { Measurement } from './measurement.js';
import { measure, type MeasureOptions } from './measure.js';
import { median } from './median.js';
import { agentHistory, CALLS_PER_TURN, piAgent, tillerAgent } from './instant-agents.js';

/** Turns per timed run, each 2 model calls and 1 tool run: enough that an agent's first prompt weighs little. */
const TURNS = 10;
/** Runs over an empty history first, discarded: otherwise the first size timed also pays for compiling both agents. */
const WARM_ROUND: MeasureOptions = { warmup: 0, runs: 100 };

function repetitions(size: number): MeasureOptions {
  if (size >= 100_000) return { warmup: 1, runs: 7 };
  if (size >= 10_000) return { warmup: 2, runs: 11 };
  return { warmup: 5, runs: 41 };
}

async function timeAgents(entries: readonly Entry[], messages: readonly AgentMessage[], options: MeasureOptions) {
  const turns = async (prompt: (text: string) => Promise<unknown>) => {
    for (let t = 0; t < TURNS; t++) await prompt(`question ${t}`);
  };
  // A fresh agent per run, made before the clock starts, so every run begins at the same history length.
  let nextTiller: ReturnType<typeof tillerAgent> | undefined;
  let nextPi: ReturnType<typeof piAgent> | undefined;
  const prepare = () => {
    nextTiller ??= tillerAgent(entries);
    nextPi ??= piAgent(messages);
  };
  return measure(
    {
      tiller: async () => {
        const agent = nextTiller ?? tillerAgent(entries);
        nextTiller = undefined;
        await turns((text) => agent.prompt(text));
        return agent;
      },
      pi: async () => {
        const agent = nextPi ?? piAgent(messages);
        nextPi = undefined;
        await turns((text) => agent.prompt(text));
        return agent;
      },
    },
    { ...options, settle: prepare },
  );
}

const size = Number(process.argv[2]);
if (!Number.isInteger(size) || size < 0) throw new Error(`usage: measure-agent.ts <messages in the history>, got ${process.argv[2]}`);

const empty = agentHistory(0);
await timeAgents(empty.entries, empty.messages, WARM_ROUND);
const { entries, messages } = agentHistory(size);
const samples = await timeAgents(entries, messages, repetitions(size));
const perCall = (runs: number[]) => median(runs) / (TURNS * CALLS_PER_TURN);
const row: Measurement = { operation: 'agent-call', size, unit: 'ms', tiller: perCall(samples.tiller), reference: { name: 'pi-agent-core', value: perCall(samples.pi) } };
process.stdout.write(JSON.stringify(row));
