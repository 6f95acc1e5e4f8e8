import type { MaybeCompactEffect } from '@tiller/core';
import { now } from '../clock.js';
import { CompactionPolicyViolatedError } from '../errors/compaction-policy-violated-error.js';
import { type CompactionEvent, compactAtBoundary } from './compact-at-boundary.js';
import type { EffectAnswer, EffectContext } from './effect-context.js';
import { tellHooks } from './tell-hooks.js';

/**
 * `maybe_compact`: checks the compaction policy's premise (a broken one aborts the turn), then runs
 * the compactor (`compactAtBoundary`, the work a durable engine's `runCompaction` does too). The
 * ledger the compactor advanced is kept only if the core takes the answer, and the `afterCompact`
 * hooks are told only then, once the entries it appended are in the log.
 */
export async function compact(effect: MaybeCompactEffect, shell: EffectContext, signal: AbortSignal): Promise<EffectAnswer> {
  const tokensBefore = shell.meter.tokens();
  try {
    shell.guard?.observe(tokensBefore);
  } catch (error) {
    if (!CompactionPolicyViolatedError.isInstance(error)) throw error;
    shell.publish({ type: 'shell.error', where: 'compaction policy', message: error.message, error, at: now() });
    return { input: { type: 'abort', at: now(), reason: error.message } };
  }
  const { id, midRound, reason, force } = effect;
  shell.publish({ type: 'compaction.started', compactionId: id, midRound, reason, force, tokensBefore, at: now() });
  const { compactor, compactorOptions, hooks } = shell.options;
  const work = {
    compactor,
    compactorOptions,
    hooks,
    model: shell.model,
    promptTokens: shell.meter.promptTokens,
    timeoutMs: shell.options.limits.compactionTimeoutMs,
    acc: { path: shell.meter.path, ledger: shell.meter.lend() },
    // Its id index knows every branch, so a reused id costs no read of the path.
    log: shell.session,
    publish: (event: CompactionEvent) => shell.publish(event),
  };
  let done;
  try {
    done = await compactAtBoundary(effect, work, signal);
  } catch (error) {
    shell.meter.settleLoan(undefined);
    throw error;
  }
  switch (done.kind) {
    case 'ran': {
      const { ledger } = done;
      return {
        input: done.answer,
        settle: (applied) => shell.meter.settleLoan(applied ? ledger : undefined),
        // Told of a compaction that is in the log, whatever becomes of the turn or the agent: only their own limit cuts them short.
        applied: () => tellHooks(done.tellHooks, work),
      };
    }
    case 'aborted':
    case 'stopped':
      // The compactor was left running with the agent's ledger: the agent keeps one of its own.
      shell.meter.abandonLoan();
      return { input: done.answer };
    default: {
      const unknown: never = done;
      throw new TypeError(`unknown compaction end ${JSON.stringify(unknown)}`);
    }
  }
}
