import { randomUUID } from 'node:crypto';
import * as restate from '@restatedev/restate-sdk';
import { type RunToolsEffect, settleInterruptedCalls, type ToolCallPart, type ToolOutcome, type TurnEvent } from '@tiller/core';
import { type AgentLimits, planToolBatch, runToolCall, type Tool, type ToolPolicy } from '@tiller/shell';
import type { DurableToolEvent } from './durable-options.js';

export interface DurableToolsDeps {
  ctx: restate.Context;
  tools: readonly Tool[];
  policy: ToolPolicy | undefined;
  limits: AgentLimits;
  /** The turn's signal: aborted when the invocation is cancelled. */
  signal: AbortSignal;
  /**
   * Tells the host of one call's event, under the turn's next number; called on every replay
   * too, it delivers each once. `null` takes the number for an event this attempt does not tell.
   */
  tell(event: DurableToolEvent | null): void;
  /** Told when an abort listener a tool added to its signal throws or rejects (which then cannot end the process). */
  onListenerError(call: ToolCallPart, error: unknown): void;
}

/**
 * What a call's step records: its outcome, and when and for how long it ran, for `tool.finished`;
 * no outcome for a call a crash interrupted that is not run again.
 */
type CallRecord = { outcome: ToolOutcome | null; durationMs: number; at: string };

/**
 * Carries out `run_tools` in durable steps:
 * 1. one step plans the batch with the shell's `planToolBatch` (unknown tools, invalid
 *    arguments, the policy and the host's decisions), so a replay asks the policy nothing again;
 *    each refused call is told as `tool.refused`, as the shell tells it, before any call runs;
 * 2. the calls that will run go in waves of the plan's `concurrency`: a marker step per call
 *    records that it started (its time is `tool.started`'s), then one step per call runs it with
 *    the shell's `runToolCall` (timeout, the turn's signal, errors and junk as error results,
 *    truncation) and records its outcome (and `tool.finished`'s time and duration). The calls of
 *    a wave run in parallel; their events are told in the order of the calls.
 * A replay that finds a marker but no outcome applies core's `settleInterruptedCalls`, the rule
 * the shell's resume applies too: an idempotent tool runs again, any other is answered
 * "interrupted" and never runs twice (told as `tool.interrupted`; the idempotent one's
 * `tool.finished` comes when it finished again). A replay that finds the outcome uses it. Each
 * wave is awaited as one combined promise: the SDK drives one awaited promise at a time.
 */
export async function runToolsDurably(effect: RunToolsEffect, deps: DurableToolsDeps): Promise<TurnEvent> {
  const { ctx } = deps;
  const batchId = effect.id;
  const plan = await ctx.run(`plan ${batchId}`, () => planToolBatch(effect, deps), { maxRetryAttempts: 3 });
  const at = () => ctx.date.toJSON();
  if (plan.kind === 'ask') return { type: 'approval.needed', id: batchId, toolCallIds: plan.toolCallIds, at: await at() };
  const refused = plan.calls.flatMap((planned) => (planned.kind === 'refused' ? [planned] : []));
  if (refused.length > 0) {
    const refusedAt = await at();
    for (const { call, refusal } of refused) deps.tell({ type: 'tool.refused', batchId, toolCallId: call.id, toolName: call.name, ...refusal, at: refusedAt });
  }
  const runnable = plan.calls.flatMap((planned) => (planned.kind === 'run' ? [planned.call] : []));
  const ran = new Map<string, ToolOutcome>();
  for (let from = 0; from < runnable.length; from += plan.concurrency) {
    for (const [call, outcome] of await runWave(batchId, runnable.slice(from, from + plan.concurrency), deps)) ran.set(call.id, outcome);
  }
  const results = plan.calls.map((planned) => (planned.kind === 'refused' ? planned.outcome : ran.get(planned.call.id)!));
  return { type: 'tools.done', id: batchId, results, at: await at() };
}

/** The markers of a wave, then its runs, each as one combined step. */
async function runWave(batchId: string, wave: readonly ToolCallPart[], deps: DurableToolsDeps): Promise<Array<[ToolCallPart, ToolOutcome]>> {
  const { ctx } = deps;
  // Only this attempt knows this token: a marker that holds another one was written before a crash.
  const token = randomUUID();
  const markers = await restate.RestatePromise.all(wave.map((call) => ctx.run(`started ${call.id}`, () => ({ token, at: new Date().toISOString() }))));
  // A finished call never gets here on a replay: its outcome step answers from the journal.
  const { settled } = settleInterruptedCalls({
    calls: wave,
    started: new Set(wave.filter((_, i) => markers[i]!.token !== token).map((call) => call.id)),
    finished: new Map(),
    isIdempotent: (name) => deps.tools.find((tool) => tool.name === name)?.idempotent === true,
  });
  // Two numbers per call whatever this attempt finds, so every replay numbers the events alike: its
  // start, and its end (finished, or interrupted and not run again).
  for (const [i, call] of wave.entries()) {
    deps.tell(settled.has(call.id) ? null : { type: 'tool.started', batchId, toolCallId: call.id, toolName: call.name, at: markers[i]!.at });
  }
  const records = await restate.RestatePromise.all(
    wave.map((call) => ctx.run(`tool ${call.id}`, async (): Promise<CallRecord> => (settled.has(call.id) ? { outcome: null, durationMs: 0, at: new Date().toISOString() } : runCall(call, deps)), { maxRetryAttempts: 1 })),
  );
  return wave.map((call, i): [ToolCallPart, ToolOutcome] => {
    const { outcome, durationMs, at } = records[i]!;
    if (!outcome) {
      deps.tell({ type: 'tool.interrupted', batchId, toolCallId: call.id, toolName: call.name, rerun: false, at });
      return [call, settled.get(call.id)!];
    }
    deps.tell({ type: 'tool.finished', batchId, toolCallId: call.id, toolName: call.name, isError: outcome.isError, durationMs, at });
    return [call, outcome];
  });
}

async function runCall(call: ToolCallPart, deps: DurableToolsDeps): Promise<CallRecord> {
  let durationMs = 0;
  const outcome = await runToolCall(call, { ...deps, onFinish: (_call, _outcome, ms) => void (durationMs = ms) });
  return { outcome, durationMs, at: new Date().toISOString() };
}
