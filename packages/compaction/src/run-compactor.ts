import type { CompactionMeta as JournalMeta, Entry } from '@tiller/core';
import { type HookTeller, hookTeller, tellNoHook } from './after-compact-hooks.js';
import { appendedEntriesProblem, type TakenIds } from './appended-entries-problem.js';
import { describeThrown } from './describe-thrown.js';
import { describeValue } from './describe-value.js';
import { droppedEntriesProblem } from './dropped-entries-problem.js';
import { CompactionConfigError } from './errors/index.js';
import { readOnlyPath } from './read-only-path.js';
import type { CompactionAcc, CompactionContext, CompactionHooks, CompactionMeta, Compactor } from './compactor.js';
import type { TokenLedger } from './token-ledger.js';

/** What a boundary's compaction came to, ready for the core's `compaction.done`. */
export interface CompactorRun {
  /** Plain JSON (the journal records it): an error as its message and code, dropped entries by id. */
  meta: JournalMeta;
  /** The entries to append to the path: the compactor's, when its result was kept; else none. */
  appended: Entry[];
  /** The ledger that follows the compacted path, when the compactor returned one and it was kept. */
  ledger: TokenLedger | undefined;
  /** How the compactor broke its contract, when it did; its result was then discarded. */
  breach: string | undefined;
  /**
   * Runs the `afterCompact` hooks, in order, once: call it when `appended` is in the log, so that a
   * hook finds the entries there. They hear of a compaction only when entries left the context and
   * `ctx.signal` had not aborted; else it runs none. Resolves with a line for each hook that threw,
   * or was left running when `signal` aborted (the hooks after it are then not run); the compaction
   * stands either way. It never throws.
   */
  tellHooks: HookTeller;
}

export interface RunCompactorOptions<Opts> {
  opts?: Opts | undefined;
  /** Told by `run.tellHooks`, once the host has appended the entries. */
  hooks?: CompactionHooks | undefined;
  /**
   * The session log the entries go to (any object with `has(id)`: a `SessionLog`, a `Set` of its
   * ids), knowing every entry of the path. Given, an appended id is looked up there, so one used
   * on another branch is caught too, at the cost of its index; else the path is read.
   */
  log?: TakenIds | undefined;
}

/**
 * Runs a compactor at a boundary and holds it to its contract: a compactor that throws compacts
 * nothing, and one whose path is not the old path plus exactly the entries it reports appended has
 * its result discarded; either way `breach` and the meta's error say what happened. The
 * `afterCompact` hooks are not run here but by `run.tellHooks`, once the host has appended the
 * entries: a time limit on the compactor's work then does not cover them, and a slow hook cannot
 * cancel a compaction that is done.
 */
export async function runCompactor<Opts>(compactor: Compactor<Opts>, acc: CompactionAcc, ctx: CompactionContext, options: RunCompactorOptions<Opts> = {}): Promise<CompactorRun> {
  const { log } = options;
  if (log !== undefined && typeof (log as Partial<TakenIds> | null)?.has !== 'function') {
    throw new CompactionConfigError('runCompactor', 'log', `is invalid: expected the session log, or any object with has(id) (a Set of the ids), not ${describeValue(log)}`);
  }
  let outcome;
  try {
    outcome = await compactor.maybeCompact({ ...acc, path: readOnlyPath(acc.path) }, ctx, options.opts);
  } catch (error) {
    // A failed compaction is the compactor's to report in its meta; a throw is a bug the host must hear of.
    const breach = `the compactor ${compactor.name} threw: ${describeThrown(error)}; it compacted nothing`;
    return { ...unchanged({ compacted: false, error: breach }), breach };
  }
  const problem =
    shapeProblem(outcome) ??
    appendOnlyProblem(acc.path, outcome.acc.path, outcome.meta.appended) ??
    appendedEntriesProblem(acc.path, outcome.meta.appended, log) ??
    unreportedProblem(outcome.meta) ??
    (outcome.meta.compacted ? droppedEntriesProblem(outcome.meta.dropped, outcome.meta.appended) : null);
  if (problem) {
    const breach = `the compactor ${compactor.name} broke its contract: ${problem}; its result was discarded`;
    return { ...unchanged({ compacted: false, error: breach }), breach };
  }
  const { meta } = outcome;
  // Past its signal's abort the caller has left this run behind and keeps none of it: no hook hears of it.
  const tellHooks = meta.compacted && meta.dropped.length > 0 && !ctx.signal?.aborted ? hookTeller(options.hooks, meta) : tellNoHook;
  return { meta: journalMeta(meta), appended: [...meta.appended], ledger: outcome.acc.ledger, breach: undefined, tellHooks };
}

function unchanged(meta: JournalMeta): CompactorRun {
  return { meta, appended: [], ledger: undefined, breach: undefined, tellHooks: tellNoHook };
}

/**
 * What is missing from a result the types promise but a compactor written in JavaScript (or cast)
 * may not give: said plainly, instead of a TypeError deep inside the shell.
 */
function shapeProblem(outcome: unknown): string | null {
  if (typeof outcome !== 'object' || outcome === null) return `it returned ${outcome === null ? 'null' : typeof outcome}, expected {acc, meta}`;
  const { acc, meta } = outcome as { acc?: { path?: unknown }; meta?: { compacted?: unknown; appended?: unknown } };
  if (!Array.isArray(acc?.path)) return 'acc.path is not an array (expected {acc: {path}, meta})';
  if (typeof meta?.compacted !== 'boolean') return 'meta.compacted is not a boolean';
  if (!Array.isArray(meta.appended)) return 'meta.appended is not an array (list the entries appended, [] for none)';
  return meta.compacted ? compactedShapeProblem(meta as Record<string, unknown>) : null;
}

/** The fields a compaction that happened reports, which the journal and the hooks read. */
function compactedShapeProblem(meta: Record<string, unknown>): string | null {
  const { dropped, clearedEntryIds } = meta;
  if (!Array.isArray(dropped) || !dropped.every((entry) => typeof (entry as { id?: unknown } | null)?.id === 'string')) {
    return 'meta.dropped is not an array of entries (list the entries that left the context, [] for none)';
  }
  if (!Array.isArray(clearedEntryIds) || !clearedEntryIds.every((id) => typeof id === 'string')) {
    return 'meta.clearedEntryIds is not an array of entry ids ([] for none)';
  }
  for (const field of ['tokensBefore', 'tokensAfter', 'tokensRemoved'] as const) {
    if (typeof meta[field] !== 'number' || !Number.isFinite(meta[field])) return `meta.${field} is not a number`;
  }
  if (typeof meta.strategy !== 'string') return 'meta.strategy is not a string';
  if (typeof meta.midRound !== 'boolean') return 'meta.midRound is not a boolean';
  return null;
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

/**
 * A meta at odds with what was appended: entries appended under `compacted: false` would change
 * the context while the journal, the events and the hooks say nothing happened; `compacted: true`
 * with nothing appended tells them of a compaction that changed nothing.
 */
function unreportedProblem(meta: CompactionMeta): string | null {
  if (meta.compacted && meta.appended.length === 0) {
    return 'its meta says compacted: true but it appended nothing (a compaction appends its entry; say compacted: false otherwise)';
  }
  if (meta.compacted || meta.appended.length === 0) return null;
  const count = meta.appended.length;
  return `it appended ${count} ${count === 1 ? 'entry' : 'entries'} but its meta says compacted: false (a compaction that appends says compacted: true)`;
}

/**
 * A failed compaction's error as the journal keeps it: an Error's message and code (or name); what a
 * compactor written in JavaScript gives instead (a string, an object) as text, so the failure is
 * never dropped.
 */
function failedWith(error: unknown): { error: string; errorCode?: string } {
  if (!(error instanceof Error)) return { error: describeThrown(error) };
  const code = (error as { code?: unknown }).code;
  return { error: String(error.message), errorCode: typeof code === 'string' ? code : error.name };
}

/** The meta as the core's `compaction.done` carries it. */
function journalMeta(meta: CompactionMeta): JournalMeta {
  if (!meta.compacted) {
    return {
      compacted: false,
      ...(meta.error ? failedWith(meta.error) : {}),
      ...(meta.skipped ? { skipped: meta.skipped } : {}),
    };
  }
  return {
    compacted: true,
    strategy: meta.strategy,
    tokensBefore: meta.tokensBefore,
    tokensAfter: meta.tokensAfter,
    tokensRemoved: meta.tokensRemoved,
    droppedEntryIds: meta.dropped.map((entry) => entry.id),
    clearedEntryIds: [...meta.clearedEntryIds],
    midRound: meta.midRound,
    ...(meta.summarizerUsage ? { summarizerUsage: meta.summarizerUsage } : {}),
    ...(Array.isArray(meta.warnings) && meta.warnings.length > 0 ? { warnings: [...meta.warnings] } : {}),
  };
}
