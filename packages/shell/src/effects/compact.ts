import { runCompactor } from '@tiller/compaction';
import type { MaybeCompactEffect } from '@tiller/core';
import { now } from '../clock.js';
import { CompactionPolicyViolatedError } from '../errors/compaction-policy-violated-error.js';
import { abortable } from '../runtime/abortable.js';
import { workSignal } from '../runtime/work-signal.js';
import { describeThrown } from '../describe-thrown.js';
import type { EffectAnswer, EffectContext } from './effect-context.js';

/**
 * `maybe_compact`: checks the compaction policy's premise (a broken one aborts the turn), then runs
 * the compactor through `@tiller/compaction`'s `runCompactor`, which holds it to its contract,
 * raced against the turn's signal. The ledger the compactor advanced is kept only if the core
 * takes the answer.
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
  // The compactor gets a signal of its own, so that an abort listener of its that throws is reported, not fatal.
  const work = workSignal(signal, (error) =>
    shell.publish({ type: 'shell.error', where: `compactor ${compactor.name} abort listener`, message: describeThrown(error), at: now() }),
  );
  const ctx = { model: shell.model.id, window: shell.model.contextWindow, promptTokens: shell.meter.promptTokens, midRound, force, reason, signal: work.signal };
  const acc = { path: shell.meter.path, ledger: shell.meter.lend() };
  try {
    const run = await abortable(runCompactor(compactor, acc, ctx, { opts: compactorOptions, hooks }), signal);
    if (run.breach) shell.publish({ type: 'shell.error', where: 'compaction', message: run.breach, at: now() });
    return {
      input: { type: 'compaction.done', id, at: now(), meta: run.meta, appended: run.appended },
      settle: (applied) => shell.meter.settleLoan(applied ? run.ledger : undefined),
    };
  } catch (error) {
    shell.meter.settleLoan(undefined);
    if (!signal.aborted) throw error;
    // The answer is stale: the abort input is ahead of it.
    return { input: { type: 'compaction.done', id, at: now(), meta: { compacted: false, error: 'the turn was aborted' }, appended: [] } };
  } finally {
    work.end();
  }
}
