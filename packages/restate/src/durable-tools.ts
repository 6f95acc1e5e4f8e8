import { randomUUID } from 'node:crypto';
import * as restate from '@restatedev/restate-sdk';
import { type RunToolsEffect, settleInterruptedCalls, type ToolCallPart, type ToolOutcome, type TurnEvent } from '@tiller/core';
import { type AgentLimits, planToolBatch, runToolCall, type Tool, type ToolPolicy } from '@tiller/shell';

export interface DurableToolsDeps {
  ctx: restate.Context;
  tools: readonly Tool[];
  policy: ToolPolicy | undefined;
  limits: AgentLimits;
  /** The turn's signal: aborted when the invocation is cancelled. */
  signal: AbortSignal;
}

/**
 * Carries out `run_tools` in durable steps:
 * 1. one step plans the batch with the shell's `planToolBatch` (unknown tools, invalid
 *    arguments, the policy and the host's decisions), so a replay asks the policy nothing again;
 * 2. the calls that will run go in waves of the plan's `concurrency`: a marker step per call
 *    records that it started, then one step per call runs it with the shell's `runToolCall`
 *    (timeout, the turn's signal, errors and junk as error results, truncation) and records its
 *    outcome. The calls of a wave run in parallel.
 * A replay that finds a marker but no outcome applies core's `settleInterruptedCalls`, the rule
 * the shell's resume applies too: an idempotent tool runs again, any other is answered
 * "interrupted" and never runs twice. A replay that finds the outcome uses it. Each wave is
 * awaited as one combined promise: the SDK drives one awaited promise at a time.
 */
export async function runToolsDurably(effect: RunToolsEffect, deps: DurableToolsDeps): Promise<TurnEvent> {
  const { ctx } = deps;
  const plan = await ctx.run(`plan ${effect.id}`, () => planToolBatch(effect, deps), { maxRetryAttempts: 3 });
  const at = () => ctx.date.toJSON();
  if (plan.kind === 'ask') return { type: 'approval.needed', id: effect.id, toolCallIds: plan.toolCallIds, at: await at() };
  const runnable = plan.calls.flatMap((planned) => (planned.kind === 'run' ? [planned.call] : []));
  const ran = new Map<string, ToolOutcome>();
  for (let from = 0; from < runnable.length; from += plan.concurrency) {
    for (const [call, outcome] of await runWave(runnable.slice(from, from + plan.concurrency), deps)) ran.set(call.id, outcome);
  }
  const results = plan.calls.map((planned) => (planned.kind === 'refused' ? planned.outcome : ran.get(planned.call.id)!));
  return { type: 'tools.done', id: effect.id, results, at: await at() };
}

/** The markers of a wave, then its runs, each as one combined step. */
async function runWave(wave: readonly ToolCallPart[], deps: DurableToolsDeps): Promise<Array<[ToolCallPart, ToolOutcome]>> {
  const { ctx } = deps;
  // Only this attempt knows this token: a marker that holds another one was written before a crash.
  const token = randomUUID();
  const markers = await restate.RestatePromise.all(wave.map((call) => ctx.run(`started ${call.id}`, () => token)));
  // A finished call never gets here on a replay: its outcome step answers from the journal.
  const { settled } = settleInterruptedCalls({
    calls: wave,
    started: new Set(wave.filter((_, i) => markers[i] !== token).map((call) => call.id)),
    finished: new Map(),
    isIdempotent: (name) => deps.tools.find((tool) => tool.name === name)?.idempotent === true,
  });
  const outcomes = await restate.RestatePromise.all(
    wave.map((call) => ctx.run(`tool ${call.id}`, async (): Promise<ToolOutcome> => settled.get(call.id) ?? runToolCall(call, deps), { maxRetryAttempts: 1 })),
  );
  return wave.map((call, i) => [call, outcomes[i]!]);
}
