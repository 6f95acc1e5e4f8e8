import type { Entry, Usage } from '@tiller/core';
import type { TokenLedger } from './token-ledger.js';

/**
 * What a compactor works on: the session path (root to leaf) and, optionally, the ledger that
 * follows it. A compactor only appends: the `acc` it returns holds the same entries plus the ones
 * it appended (with the ledger advanced past them); `meta.appended` lists them for the shell to
 * persist.
 */
export interface CompactionAcc {
  readonly path: readonly Entry[];
  /** When given, it must have been fed exactly `path`; its estimate makes the decision O(1). */
  readonly ledger?: TokenLedger | undefined;
}

/** Where the turn stands when the core asks for a compaction (`maybe_compact`). */
export interface CompactionContext {
  /** The session's model id (`provider/model` or bare). */
  model: string;
  /** The model's context window when the shell knows it. */
  window?: number | undefined;
  /** System prompt and tool definitions, estimated with `estimateTextTokens`. */
  promptTokens: number;
  /** True between tool rounds of one turn; false at a turn's start. */
  midRound: boolean;
  /** The provider said the context overflowed: compact whatever the estimate says. */
  force?: boolean | undefined;
  reason?: string | undefined;
  signal?: AbortSignal | undefined;
}

export type CompactionStrategyName = 'summarize' | 'clearToolResults' | 'keepTail';

/** What happened. `compacted: false` leaves the log alone; `error` says why when it failed. */
export type CompactionMeta =
  | { compacted: false; appended: readonly Entry[]; error?: Error | undefined; skipped?: string | undefined }
  | {
      compacted: true;
      appended: readonly Entry[];
      strategy: CompactionStrategyName | (string & {});
      tokensBefore: number;
      tokensAfter: number;
      tokensRemoved: number;
      /** Entries that left the context, oldest first. */
      dropped: readonly Entry[];
      /** Tool results whose content this compaction replaced with a placeholder. */
      clearedEntryIds: readonly string[];
      midRound: boolean;
      summarizerUsage?: Usage | undefined;
      /** What was left out of the entry and why (a summarizer's usage that is no count of tokens); absent when nothing was. */
      warnings?: readonly string[] | undefined;
    };

export interface CompactionOutcome {
  acc: CompactionAcc;
  meta: CompactionMeta;
}

/**
 * Normandy's contract: `maybeCompact(acc, ctx, opts) -> {acc, meta}`. It never throws for a failed
 * compaction (that is `meta.error`); `validateOpts` throws at configuration time, naming the entry
 * point and the option.
 */
export interface Compactor<Opts = undefined> {
  readonly name: string;
  maybeCompact(acc: CompactionAcc, ctx: CompactionContext, opts?: Opts): Promise<CompactionOutcome>;
  /** True when `ctx.window` must be known for `opts` (the shell resolves it before a turn). */
  needsWindow?(opts?: Opts): boolean;
  /**
   * The window the compactor would use for `model` when the shell knows none (its own catalog);
   * throws a `CompactionConfigError` when it knows none either. Asked at configuration time.
   */
  windowFor?(model: string, opts?: Opts): number;
  /**
   * The tokens it keeps free at the top of the window for `model`: it compacts once the context
   * passes `window - reserve`. The shell records it in the journal's header, where an inspector
   * marks it; a compactor with no such line (NoOp) has none.
   */
  reserveFor?(model: string, opts?: Opts): number;
  validateOpts?(opts: Opts | undefined, entryPoint: string): void;
}

/**
 * Whether `value` can serve as a compactor: a non-empty `name` (every message about a compactor
 * names it) and a `maybeCompact` function. The optional methods are checked where they are used.
 */
export function isCompactor(value: unknown): value is Compactor<any> {
  const candidate = value as Partial<Compactor<unknown>> | null | undefined;
  return typeof candidate?.name === 'string' && candidate.name !== '' && typeof candidate.maybeCompact === 'function';
}

/** No change at any boundary. The default compactor. */
export const NoOpCompactor: Compactor<undefined> = Object.freeze({
  name: 'noop',
  maybeCompact: async (acc: CompactionAcc) => ({ acc, meta: { compacted: false as const, appended: [] } }),
  needsWindow: () => false,
});

/** Listeners told about a compaction that removed something from the context, once the host has appended its entries (`run.tellHooks`). */
export interface CompactionHooks {
  afterCompact?: Array<(meta: Extract<CompactionMeta, { compacted: true }>) => void | Promise<void>> | undefined;
}
