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
 * What a call's step records: the call ran (its outcome, and when and for how long, for
 * `tool.finished`), or a crash had cut it (found by the attempt after the crash), and it either
 * gets the "interrupted" result core's rule gives it or, its tool being idempotent, runs again.
 */
type CallRecord =
  | { kind: 'ran'; outcome: ToolOutcome; durationMs: number; at: string }
  | { kind: 'interrupted'; outcome: ToolOutcome; at: string }
  | { kind: 'rerun'; at: string };

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
 * A call step that runs after its marker was written by an earlier attempt finds the call cut by
 * a crash, and settles it by core's `settleInterruptedCalls`, the rule the shell's resume applies
 * too: any tool but an idempotent one is answered "interrupted" and never runs twice. The step
 * records the cut, so every later replay sees it, and the host hears `tool.interrupted` with
 * `rerun` as the shell tells it; a call to run again then takes a marker and a call step of its
 * own (its second `tool.started`, then its `tool.finished`), and so on for as many crashes as cut
 * it. A replay that finds a call's record uses it. Each wave is awaited as one combined promise:
 * the SDK drives one awaited promise at a time.
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
    // The calls a crash cut that run again, as a wave of their own: a call's run is counted from 0.
    let pending = runnable.slice(from, from + plan.concurrency);
    for (let run = 0; pending.length > 0; run++) {
      const again: ToolCallPart[] = [];
      for (const [call, outcome] of await runWave(batchId, pending, run, deps)) {
        if (outcome) ran.set(call.id, outcome);
        else again.push(call);
      }
      pending = again;
    }
  }
  const results = plan.calls.map((planned) => (planned.kind === 'refused' ? planned.outcome : ran.get(planned.call.id)!));
  return { type: 'tools.done', id: batchId, results, at: await at() };
}

/**
 * The markers of a wave, then its call steps, each as one combined step. Each call gets its
 * outcome, or null when a crash cut it and it is to run again.
 */
async function runWave(batchId: string, wave: readonly ToolCallPart[], run: number, deps: DurableToolsDeps): Promise<Array<[ToolCallPart, ToolOutcome | null]>> {
  const { ctx } = deps;
  const step = (what: string, call: ToolCallPart) => (run === 0 ? `${what} ${call.id}` : `${what} ${call.id} (run ${run + 1})`);
  // Only this attempt knows this token: a marker that holds another one was written before a crash.
  const token = randomUUID();
  const markers = await restate.RestatePromise.all(wave.map((call) => ctx.run(step('started', call), () => ({ token, at: new Date().toISOString() }))));
  const cutEarlier = (i: number) => markers[i]!.token !== token;
  // How core's rule settles a call whose step runs after an earlier attempt wrote its marker: a crash
  // cut it. (A call whose record was journaled never gets there: its step answers from the journal.)
  const { settled } = settleInterruptedCalls({
    calls: wave,
    started: new Set(wave.filter((_, i) => cutEarlier(i)).map((call) => call.id)),
    finished: new Map(),
    isIdempotent: (name) => deps.tools.find((tool) => tool.name === name)?.idempotent === true,
  });
  // Two numbers per call and run whatever this attempt finds, so every replay numbers the events
  // alike: its start (told by the attempt that wrote the marker), and its end (finished, or interrupted).
  for (const [i, call] of wave.entries()) {
    deps.tell(cutEarlier(i) ? null : { type: 'tool.started', batchId, toolCallId: call.id, toolName: call.name, at: markers[i]!.at });
  }
  const records = await restate.RestatePromise.all(
    wave.map((call, i) =>
      ctx.run(
        step('tool', call),
        async (): Promise<CallRecord> => {
          if (!cutEarlier(i)) return runCall(call, deps);
          const outcome = settled.get(call.id);
          return outcome ? { kind: 'interrupted', outcome, at: new Date().toISOString() } : { kind: 'rerun', at: new Date().toISOString() };
        },
        { maxRetryAttempts: 1 },
      ),
    ),
  );
  return wave.map((call, i): [ToolCallPart, ToolOutcome | null] => {
    const record = records[i]!;
    switch (record.kind) {
      case 'ran':
        deps.tell({ type: 'tool.finished', batchId, toolCallId: call.id, toolName: call.name, isError: record.outcome.isError, durationMs: record.durationMs, at: record.at });
        return [call, record.outcome];
      case 'interrupted':
        deps.tell({ type: 'tool.interrupted', batchId, toolCallId: call.id, toolName: call.name, rerun: false, at: record.at });
        return [call, record.outcome];
      case 'rerun':
        deps.tell({ type: 'tool.interrupted', batchId, toolCallId: call.id, toolName: call.name, rerun: true, at: record.at });
        return [call, null];
      default: {
        const unknown: never = record;
        throw new TypeError(`unknown call record ${JSON.stringify(unknown)}`);
      }
    }
  });
}

async function runCall(call: ToolCallPart, deps: DurableToolsDeps): Promise<CallRecord> {
  let durationMs = 0;
  const outcome = await runToolCall(call, { ...deps, onFinish: (_call, _outcome, ms) => void (durationMs = ms) });
  return { kind: 'ran', outcome, durationMs, at: new Date().toISOString() };
}
