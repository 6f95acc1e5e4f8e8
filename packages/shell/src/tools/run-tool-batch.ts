import type { ToolCallPart, ToolOutcome } from '@tiller/core';
import { type BatchCall, planBatch } from './plan-batch.js';
import type { PlanOptions } from './plan-call.js';
import { runCall, type RunCallOptions } from './run-call.js';
import { errorOutcome } from './tool-output.js';
import type { ToolRefusal } from './tool-refusal.js';

export interface ToolBatchOptions extends PlanOptions, RunCallOptions {
  maxConcurrency: number;
  /**
   * Told of each call refused before it could run, once the batch has nothing left to ask, before
   * any call runs (and awaited, in order: a journal records it first).
   */
  onRefuse?: ((call: ToolCallPart, refusal: ToolRefusal) => Promise<void>) | undefined;
}

export type ToolBatchResult = { kind: 'ask'; toolCallIds: string[] } | { kind: 'done'; results: ToolOutcome[] };

/**
 * One batch of tool calls: planned by `planBatch` (known tool, valid arguments, decisions and the
 * policy), and, when nothing is left to ask, the allowed calls run at most the plan's
 * `concurrency` at a time. Results come back in the order of the calls.
 */
export async function runToolBatch(options: ToolBatchOptions): Promise<ToolBatchResult> {
  const plan = await planBatch(options);
  if (plan.kind === 'ask') return plan;
  for (const planned of plan.calls) if (planned.kind === 'refused') await options.onRefuse?.(planned.call, planned.refusal);
  // A placeholder where a call will run: its outcome replaces it.
  const results = plan.calls.map((planned) => (planned.kind === 'run' ? errorOutcome('', '') : planned.outcome));
  const runnable = plan.calls.flatMap((planned, index) => (planned.kind === 'run' ? [{ ...planned, index }] : []));
  const width = Math.min(plan.concurrency, runnable.length);
  const work: Work = { runnable, next: 0, results };
  await Promise.all(Array.from({ length: width }, () => runInTurn(work, options)));
  return { kind: 'done', results };
}

type Runnable = Extract<BatchCall, { kind: 'run' }> & { index: number };
type Work = { runnable: readonly Runnable[]; next: number; results: ToolOutcome[] };

/** One worker: takes the next call not yet taken until none is left or the turn is aborted. */
async function runInTurn(work: Work, options: RunCallOptions): Promise<void> {
  while (work.next < work.runnable.length && !options.signal.aborted) {
    const { tool, call, args, index } = work.runnable[work.next++]!;
    work.results[index] = await runCall(tool, call, args, options);
  }
}
