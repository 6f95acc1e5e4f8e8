import { type CompactionHooks, compactionDoneMeta, type Compactor, NoOpCompactor, runAfterCompactHooks, type TokenLedger } from '@tiller/compaction';
import type { CompactionMeta as CoreCompactionMeta, Entry, MaybeCompactEffect, TurnEventOf } from '@tiller/core';
import { now } from '../clock.js';
import type { EventSink } from './event-hub.js';

export interface CompactionDeps {
  compactor: Compactor<unknown>;
  compactorOptions: unknown;
  /** The session path the turn stands on, and the ledger that follows it. */
  path: readonly Entry[];
  ledger: TokenLedger;
  modelId: string;
  window: number | undefined;
  promptTokens: number;
  contextTokens(): number;
  hooks: CompactionHooks;
  signal: AbortSignal;
  events: EventSink;
}

/**
 * Carries out `maybe_compact`: asks the compactor, checks that it only appended to the path (if
 * not, nothing it returned is kept and the turn goes on uncompacted), runs the `afterCompact` hooks,
 * and answers with the appended entries.
 */
export function resolveCompaction(effect: MaybeCompactEffect, deps: CompactionDeps): ResolvedCompaction | Promise<ResolvedCompaction> {
  if (deps.events.listening) {
    deps.events.publish({
      type: 'compaction.started',
      compactionId: effect.id,
      midRound: effect.midRound,
      reason: effect.reason,
      force: effect.force,
      tokensBefore: deps.contextTokens(),
      at: now(),
    });
  }
  // The default compactor never compacts: its answer is known without asking it. (Options parsing
  // copies the compactor object, so it is known by its function.)
  if (deps.compactor.maybeCompact === NoOpCompactor.maybeCompact) return { event: done(effect, { compacted: false }, []), ledger: undefined };
  return askCompactor(effect, deps);
}

/** The answer to `maybe_compact`, and the ledger that follows the compacted path (none when nothing was kept). */
export interface ResolvedCompaction {
  event: TurnEventOf<'compaction.done'>;
  ledger: TokenLedger | undefined;
}

async function askCompactor(effect: MaybeCompactEffect, deps: CompactionDeps): Promise<ResolvedCompaction> {
  let outcome;
  try {
    outcome = await deps.compactor.maybeCompact(
      { path: deps.path, ledger: deps.ledger },
      {
        model: deps.modelId,
        window: deps.window,
        promptTokens: deps.promptTokens,
        midRound: effect.midRound,
        force: effect.force,
        reason: effect.reason,
        signal: deps.signal,
      },
      deps.compactorOptions,
    );
  } catch (error) {
    return { event: done(effect, { compacted: false, error: `the compactor ${deps.compactor.name} threw: ${(error as Error).message}` }, []), ledger: undefined };
  }
  const problem = appendOnlyProblem(deps.path, outcome.acc.path, outcome.meta.appended);
  if (problem) {
    const message = `the compactor ${deps.compactor.name} broke its contract: ${problem}; its result was discarded`;
    deps.events.publish({ type: 'shell.error', where: 'compaction', message, at: now() });
    return { event: done(effect, { compacted: false, error: message }, []), ledger: undefined };
  }
  // The hooks are for compactions that happened; most boundaries compact nothing.
  if (outcome.meta.compacted) await runAfterCompactHooks(deps.hooks, outcome.meta);
  return { event: done(effect, compactionDoneMeta(outcome.meta), [...outcome.meta.appended]), ledger: outcome.acc.ledger };
}

function done(effect: MaybeCompactEffect, meta: CoreCompactionMeta, appended: Entry[]): TurnEventOf<'compaction.done'> {
  return { type: 'compaction.done', id: effect.id, at: now(), meta, appended };
}

/**
 * What is wrong with a compactor's result, or null: its path must be the old one plus exactly the
 * entries it reports appended. Checked at the seam and over the appended entries, so the cost does
 * not grow with the session.
 */
function appendOnlyProblem(before: readonly Entry[], after: readonly Entry[], appended: readonly Entry[]): string | null {
  if (after.length !== before.length + appended.length) {
    return `its path has ${after.length} entries, expected ${before.length} plus the ${appended.length} it appended`;
  }
  if (before.length > 0 && after[before.length - 1]?.id !== before.at(-1)!.id) return 'it changed the entries it was given';
  for (const [i, entry] of appended.entries()) {
    if (after[before.length + i]?.id !== entry.id) return `appended[${i}] is not at the end of its path`;
  }
  return null;
}
