import { type CompactionAcc, type CompactionHooks, type Compactor, type HookTeller, type RunCompactorOptions, runCompactor, type TokenLedger } from '@tiller/compaction';
import type { MaybeCompactEffect, TillerModel, TurnEventOf } from '@tiller/core';
import type { ShellEvent } from '../agent/agent-event.js';
import { now } from '../clock.js';
import { describeThrown } from '../describe-thrown.js';
import { abortable } from '../runtime/abortable.js';
import { workSignal } from '../runtime/work-signal.js';

/** What a compaction publishes: an abort listener of the compactor's that failed, a compactor that broke its contract, an `afterCompact` hook that threw or was left running. */
export type CompactionEvent = Extract<ShellEvent, { type: 'shell.error' }>;

/** The input that answers a `maybe_compact` effect. */
export type CompactionAnswer = TurnEventOf<'compaction.done'>;

/**
 * What compacting at a boundary reads: the shell's effect context has all of it, and a durable
 * engine's step (`runCompaction`) builds just this.
 */
export interface CompactionWork {
  // Any compactor, whatever its options type: `compactorOptions` is what it is handed.
  readonly compactor: Compactor<any>;
  readonly compactorOptions?: unknown;
  readonly hooks?: CompactionHooks | undefined;
  readonly model: Pick<TillerModel, 'id' | 'contextWindow'>;
  /** What every request carries besides the path (system prompt, tool specs), in estimated tokens. */
  readonly promptTokens: number;
  /** How long the compactor may take (`limits.compactionTimeoutMs`), and its hooks again after it; none, no limit. */
  readonly timeoutMs?: number | undefined;
  /** The path and a token ledger over it, lent to the compactor (which may advance the ledger). */
  readonly acc: CompactionAcc;
  /** The session log the path is a branch of, when it has others: an appended id is checked against all of them. */
  readonly log?: RunCompactorOptions<unknown>['log'];
  publish(event: CompactionEvent): void;
}

/**
 * How a boundary's compaction ended: it ran (with the ledger the compactor returned, if any, and
 * the teller of its `afterCompact` hooks, for once its entries are written: `tellHooks`), or the
 * compactor was left behind (`aborted`: the answer is stale; `stopped`: past its time limit).
 */
export type BoundaryCompaction =
  | { kind: 'ran'; answer: CompactionAnswer; ledger: TokenLedger | undefined; tellHooks: HookTeller }
  /** Left behind: the turn was aborted, or the compactor ran past its time limit. It may still write to what it was lent. */
  | { kind: 'aborted' | 'stopped'; answer: CompactionAnswer };

/**
 * Runs the compactor at a boundary through `@tiller/compaction`'s `runCompactor`, which holds it to
 * its contract, raced against the turn's signal and the time limit (past it, the compaction is
 * stopped, compacts nothing, and a `shell.error` says so). The limit covers the compactor's own
 * work only: the `afterCompact` hooks are told later (`tellHooks`), so a slow one cannot cancel a
 * compaction that is done. The compactor gets a signal of its own, so that an abort listener of
 * its that throws is published, not fatal. Throws only what `runCompactor` lets through, and only
 * while the turn is not aborted.
 */
export async function compactAtBoundary(effect: MaybeCompactEffect, work: CompactionWork, signal: AbortSignal): Promise<BoundaryCompaction> {
  const { id, midRound, reason, force } = effect;
  const { compactor, model } = work;
  // A compactor that never answers (and ignores its signal) would hold the turn for good: past the limit it is stopped and left behind.
  const timedOut = `the compactor ${compactor.name} did not finish within ${work.timeoutMs} ms (limits.compactionTimeoutMs); it compacted nothing`;
  const lent = workSignal(
    signal,
    (error) => work.publish({ type: 'shell.error', where: `compactor ${compactor.name} abort listener`, message: describeThrown(error), at: now() }),
    { ms: work.timeoutMs, message: timedOut },
  );
  const ctx = { model: model.id, window: model.contextWindow, promptTokens: work.promptTokens, midRound, force, reason, signal: lent.signal };
  try {
    const run = await abortable(runCompactor(compactor, work.acc, ctx, { opts: work.compactorOptions, hooks: work.hooks, log: work.log }), lent.signal);
    if (run.breach) work.publish({ type: 'shell.error', where: 'compaction', message: run.breach, at: now() });
    const answer: CompactionAnswer = { type: 'compaction.done', id, at: now(), meta: run.meta, appended: run.appended };
    return { kind: 'ran', answer, ledger: run.ledger, tellHooks: run.tellHooks };
  } catch (error) {
    if (signal.aborted) {
      // The answer is stale: the abort input is ahead of it.
      return { kind: 'aborted', answer: { type: 'compaction.done', id, at: now(), meta: { compacted: false, error: 'the turn was aborted' }, appended: [] } };
    }
    if (!lent.signal.aborted) throw error;
    work.publish({ type: 'shell.error', where: 'compaction', message: timedOut, at: now() });
    return { kind: 'stopped', answer: { type: 'compaction.done', id, at: now(), meta: { compacted: false, error: timedOut }, appended: [] } };
  } finally {
    lent.end();
  }
}
