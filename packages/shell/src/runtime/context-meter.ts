import { createTokenLedger, estimateTextTokens, type TokenLedger } from '@tiller/compaction';
import type { Entry, ToolSpec, TurnContext } from '@tiller/core';

type Entries = TurnContext['entries'];

/**
 * The session path the turn stands on, as an array the shell only appends to (a compactor gets it
 * without a copy), and the token ledger that follows it: the context's size at any boundary in O(1).
 */
export interface ContextMeter {
  readonly path: readonly Entry[];
  /** The system prompt and the tool definitions, which every request carries. */
  readonly promptTokens: number;
  /** Brings the path and the ledger up to the core's entries (which only ever grow). */
  follow(entries: Entries): void;
  /** Stands on another path (the log moved between turns): the path is refilled in place, the ledger rebuilt on first use. */
  rebase(entries: Entries): void;
  /** The ledger, lent to a compactor (which advances it past what it appends) until `settleLoan`. */
  lend(): TokenLedger;
  /**
   * The compaction's answer was applied with `kept` (the ledger the compactor returned), or
   * dropped (`undefined`): a ledger the compactor advanced for nothing is discarded.
   */
  settleLoan(kept: TokenLedger | undefined): void;
  /** The context's size: anchored on the last reported usage (which counted the prompt), else estimated with the prompt added. */
  tokens(): number;
}

export function createContextMeter(entries: Entries, systemPrompt: string | undefined, toolSpecs: readonly ToolSpec[]): ContextMeter {
  const path: Entry[] = entries.toArray();
  let ledger: TokenLedger | undefined;
  let lentAt: number | undefined;
  const promptTokens = estimateTextTokens(`${systemPrompt ?? ''}${JSON.stringify(toolSpecs)}`);
  const current = (): TokenLedger => (ledger ??= createTokenLedger(path));
  return {
    path,
    promptTokens,
    follow(next) {
      for (let i = path.length; i < next.length; i++) path.push(next.at(i)!);
      if (!ledger) return;
      for (let i = ledger.length; i < path.length; i++) ledger.append(path[i]!);
    },
    rebase(next) {
      path.length = 0;
      for (let i = 0; i < next.length; i++) path.push(next.at(i)!);
      ledger = undefined;
      lentAt = undefined;
    },
    lend() {
      const lent = current();
      lentAt = lent.length;
      return lent;
    },
    settleLoan(kept) {
      if (kept) ledger = kept;
      else if (ledger && ledger.length !== lentAt) ledger = undefined;
      lentAt = undefined;
    },
    tokens() {
      const estimate = current().estimate();
      return estimate.tokens + (estimate.anchored ? 0 : promptTokens);
    },
  };
}
