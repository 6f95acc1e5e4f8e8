import { createTokenLedger, estimateTextTokens, type TokenLedger } from '@tiller/compaction';
import type { Entry, ToolSpec, TurnContext } from '@tiller/core';

type Entries = TurnContext['entries'];

/**
 * The session path the turn stands on and the token ledger that follows it: the context's size at
 * any boundary in O(1). The path is the core's own list of entries, lent (a compactor reads it
 * without a copy, and the agent keeps no second array of its history).
 */
export interface ContextMeter {
  readonly path: readonly Entry[];
  /** The system prompt and the tool definitions, which every request carries. */
  readonly promptTokens: number;
  /** Brings the path and the ledger up to the core's entries (which only ever grow). */
  follow(entries: Entries): void;
  /** Stands on another path (the log moved between turns): the ledger is built again over it. */
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
  // The shell steps only the newest snapshot, so lending its list never copies.
  let followed = entries;
  // Built with the agent, whose making reads the whole path anyway: building it at the first
  // boundary instead would put a cost that grows with the history on the first turn.
  let ledger: TokenLedger = createTokenLedger(followed.lend());
  let lentAt: number | undefined;
  const promptTokens = estimateTextTokens(`${systemPrompt ?? ''}${JSON.stringify(toolSpecs)}`);
  return {
    get path() {
      return followed.lend();
    },
    promptTokens,
    follow(next) {
      followed = next;
      for (let i = ledger.length; i < next.length; i++) ledger.append(next.at(i)!);
    },
    rebase(next) {
      followed = next;
      ledger = createTokenLedger(followed.lend());
      lentAt = undefined;
    },
    lend() {
      lentAt = ledger.length;
      return ledger;
    },
    settleLoan(kept) {
      if (kept) ledger = kept;
      // Advanced past entries the path never got: built again over the path as it is.
      else if (ledger.length !== lentAt) ledger = createTokenLedger(followed.lend());
      lentAt = undefined;
    },
    tokens() {
      const estimate = ledger.estimate();
      return estimate.tokens + (estimate.anchored ? 0 : promptTokens);
    },
  };
}
