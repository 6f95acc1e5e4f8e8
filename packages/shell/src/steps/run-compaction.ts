import type { CompactionHooks, Compactor, TokenLedger } from '@tiller/compaction';
import type { Entry, MaybeCompactEffect, TillerModel } from '@tiller/core';
import { type CompactionAnswer, type CompactionEvent, compactAtBoundary } from '../effects/compact-at-boundary.js';
import { tellHooks } from '../effects/tell-hooks.js';

/** How `runCompaction` compacts: the agent's compaction options, and what the engine knows of the turn. */
export interface CompactionOptions {
  /** The agent's compactor (any, whatever its options type). */
  compactor: Compactor<any>;
  /** Handed to the compactor as its `opts`. */
  compactorOptions?: unknown;
  /** Run when entries left the context (`afterCompact`), at the end of the step: before the engine writes the entries. */
  hooks?: CompactionHooks | undefined;
  /** The model the turn calls: its id and context window are the compactor's `ctx.model` and `ctx.window`. */
  model: Pick<TillerModel, 'id' | 'contextWindow'>;
  /** The session path the turn stands on, as the core has it (its entries so far). */
  path: readonly Entry[];
  /**
   * A token ledger fed exactly `path`, when the engine keeps one: lent to the compactor, whose
   * decision it makes O(1) (and which may advance it past what it appends). Left out, the
   * compactor estimates from the path.
   */
  ledger?: TokenLedger | undefined;
  /** What every request carries besides the path (system prompt and tool specs), estimated with `estimateTextTokens`. */
  promptTokens: number;
  /**
   * How long the compactor may take (the agent's `limits.compactionTimeoutMs`); past it the
   * compactor is stopped and compacts nothing. The hooks then get as long again: one past it is
   * left running, and the compaction stands. None, no limit.
   */
  timeoutMs?: number | undefined;
  /**
   * The turn's cancellation. The compactor gets a signal of its own that follows it; once it
   * aborts, nothing waits on the compactor (even one that ignores the signal).
   */
  signal?: AbortSignal | undefined;
  /**
   * Told, as a `shell.error`, of an abort listener the compactor added to its signal that threw
   * or rejected (which then cannot end the process), of a compactor that broke its contract, and of
   * an `afterCompact` hook that threw or was left running past its time.
   */
  onEvent?: ((event: CompactionEvent) => void) | undefined;
}

const ignore = () => {};

/**
 * The work of a `maybe_compact` effect, for a durable engine to run inside one step of its own:
 * the shell's compaction, with the same context for the compactor, held to its contract by
 * `@tiller/compaction`'s `runCompactor` (a compactor that throws or breaks the contract compacts
 * nothing, and the meta says why). The answer is plain data, for the engine to journal; once the
 * turn's signal aborted it is `compacted: false` with the error `the turn was aborted`. The
 * `afterCompact` hooks run after the compactor, outside its time limit, before the step returns:
 * the engine writes the entries after the step (its result is what it journals), so unlike the
 * shell's, these hooks run before the entries are in the log. One that throws or is left running
 * is told to `onEvent`; the compaction stands.
 */
export async function runCompaction(effect: MaybeCompactEffect, options: CompactionOptions): Promise<CompactionAnswer> {
  const { compactor, compactorOptions, hooks, model, path, promptTokens, timeoutMs } = options;
  const work = {
    compactor,
    compactorOptions,
    hooks,
    model,
    promptTokens,
    timeoutMs,
    acc: { path, ledger: options.ledger },
    publish: options.onEvent ?? ignore,
  };
  const signal = options.signal ?? new AbortController().signal;
  const done = await compactAtBoundary(effect, work, signal);
  if (done.kind === 'ran') await tellHooks(done.tellHooks, work, signal);
  return done.answer;
}
