import type { RunToolsEffect, TurnEventOf } from '@tiller/core';
import { now } from '../clock.js';
import { describeThrown } from '../describe-thrown.js';
import { runToolBatch } from '../tools/run-tool-batch.js';
import type { EffectContext } from './effect-context.js';

/**
 * `run_tools`: the batch goes through the policy and the checks, then runs (see `runToolBatch`).
 * Each call is journaled before it starts and when it finishes, so a resume knows which calls ran.
 * A call refused before it could run is journaled, then told as `tool.refused`: a resume keeps it
 * refused (a policy asked again might not refuse it) and does not tell it again.
 * Answers with the results, or with the calls the policy wants the host to decide.
 */
export async function runTools(
  effect: RunToolsEffect,
  shell: EffectContext,
  signal: AbortSignal,
): Promise<TurnEventOf<'tools.done'> | TurnEventOf<'approval.needed'>> {
  const { id: batchId } = effect;
  const { limits, policy } = shell.options;
  const result = await runToolBatch({
    calls: effect.calls,
    decisions: effect.decisions,
    tools: shell.tools,
    policy,
    signal,
    maxConcurrency: limits.maxToolConcurrency,
    defaultTimeoutMs: limits.toolTimeoutMs,
    maxOutputChars: limits.maxToolOutputChars,
    settled: shell.resumed.get(batchId),
    async onStart(call) {
      await shell.journal.toolStarted(batchId, call);
      shell.publish({ type: 'tool.started', batchId, toolCallId: call.id, toolName: call.name, at: now() });
    },
    async onFinish(call, outcome, durationMs) {
      await shell.journal.toolFinished(batchId, call, outcome);
      shell.publish({ type: 'tool.finished', batchId, toolCallId: call.id, toolName: call.name, isError: outcome.isError, durationMs, at: now() });
    },
    onListenerError(call, error) {
      shell.publish({ type: 'shell.error', where: `tool ${call.name} abort listener`, message: describeThrown(error), at: now() });
    },
    async onRefuse(call, refusal) {
      await shell.journal.toolRefused(batchId, call, refusal);
      const { reason, message } = refusal;
      shell.publish({ type: 'tool.refused', batchId, toolCallId: call.id, toolName: call.name, reason, message, at: now() });
    },
  });
  return result.kind === 'ask'
    ? { type: 'approval.needed', id: batchId, at: now(), toolCallIds: result.toolCallIds }
    : { type: 'tools.done', id: batchId, at: now(), results: result.results };
}
