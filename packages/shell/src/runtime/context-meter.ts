import { createTokenLedger, estimateTextTokens, type TokenLedger } from '@tiller/compaction';
import type { Entry, ToolSpec, TurnContext } from '@tiller/core';

type Entries = TurnContext['entries'];

/**
 * The session path the turn stands on and the token ledger that follows it: the context's size at
 * any boundary in O(1). The path is the core's own list of entries, lent: a compactor reads it
 * without a copy (the ledger keeps an array of its own, which `createTokenLedger` copies once).
 */
export class ContextMeter {
  /** The system prompt and the tool definitions, which every request carries. */
  readonly promptTokens: number;
  // The shell steps only the newest snapshot, so lending its list never copies.
  #followed: Entries;
  #ledger: TokenLedger;
  #lentAt: number | undefined;

  constructor(entries: Entries, systemPrompt: string | undefined, toolSpecs: readonly ToolSpec[]) {
    this.#followed = entries;
    // Built with the agent, whose making reads the whole path anyway: building it at the first
    // boundary instead would put a cost that grows with the history on the first turn.
    this.#ledger = createTokenLedger(entries.lend());
    this.promptTokens = estimateTextTokens(`${systemPrompt ?? ''}${JSON.stringify(toolSpecs)}`);
  }

  get path(): readonly Entry[] {
    return this.#followed.lend();
  }

  /** Brings the path and the ledger up to the core's entries (which only ever grow). */
  follow(next: Entries): void {
    this.#followed = next;
    for (let i = this.#ledger.length; i < next.length; i++) this.#ledger.append(next.at(i)!);
  }

  /** Stands on another path (the log moved between turns): the ledger is built again over it. */
  rebase(next: Entries): void {
    this.#followed = next;
    this.#ledger = createTokenLedger(next.lend());
    this.#lentAt = undefined;
  }

  /** The ledger, lent to a compactor (which advances it past what it appends) until `settleLoan`. */
  lend(): TokenLedger {
    this.#lentAt = this.#ledger.length;
    return this.#ledger;
  }

  /**
   * The compaction's answer was applied with `kept` (the ledger the compactor returned), or
   * dropped (`undefined`): a ledger the compactor advanced for nothing is discarded.
   */
  settleLoan(kept: TokenLedger | undefined): void {
    if (kept) this.#ledger = kept;
    // Advanced past entries the path never got: built again over the path as it is.
    else if (this.#ledger.length !== this.#lentAt) this.#ledger = createTokenLedger(this.#followed.lend());
    this.#lentAt = undefined;
  }

  /**
   * The compactor the ledger was lent to was left running (the turn was aborted, or it ran past
   * its time limit): what it writes to that ledger later must not reach this one, so the agent
   * builds another over the path.
   */
  abandonLoan(): void {
    this.#ledger = createTokenLedger(this.#followed.lend());
    this.#lentAt = undefined;
  }

  /** The context's size: anchored on the last reported usage (which counted the prompt), else estimated with the prompt added. */
  tokens(): number {
    const estimate = this.#ledger.estimate();
    return estimate.tokens + (estimate.anchored ? 0 : this.promptTokens);
  }
}
