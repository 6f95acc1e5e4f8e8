import type { Entry } from '@tiller/core';
import { collectContext, entryMessage } from '@tiller/core';
import { anchorUsage, calculateContextTokens, estimateMessageTokens, estimateTokens } from './estimate-tokens.js';
import { keptStartIndex, lastCompactionIndex } from './path-scan.js';
import { z } from 'zod';
import { parseOptions } from './parse-options.js';
import type { TokenCounter } from './token-counter.js';

/** The context's estimated size as a ledger sees it. */
export interface LedgerEstimate {
  tokens: number;
  /**
   * True when `tokens` rests on a usage the provider reported after the latest compaction: that
   * figure already counts the system prompt and tool definitions. When false, the caller adds them.
   */
  anchored: boolean;
  usageTokens: number;
  trailingTokens: number;
}

/**
 * The context size of a growing path, kept up to date one appended entry at a time, so that the
 * should-compact decision at a boundary costs O(1). Feed it every entry appended to the path, in
 * order, compaction entries included: a compaction resets it from the entries it keeps.
 */
export interface TokenLedger {
  /** Number of entries fed so far; equals the length of the path it follows. */
  readonly length: number;
  readonly tokens: number;
  readonly anchored: boolean;
  estimate(): LedgerEstimate;
  append(entry: Entry): void;
  appendAll(entries: Iterable<Entry>): void;
}

export interface LedgerOptions {
  counter?: TokenCounter | undefined;
}
const LedgerOptions = z.strictObject({
  counter: z.custom<TokenCounter>((value) => typeof (value as TokenCounter | undefined)?.count === 'function', { message: 'expected a TokenCounter' }).optional(),
});

/**
 * A ledger for `path` (empty by default). Loading a path costs one backward scan to its latest
 * compaction plus estimates of what that compaction kept and what followed the last reported
 * usage: it never estimates the whole history.
 */
export function createTokenLedger(path: readonly Entry[] = [], options: LedgerOptions = {}): TokenLedger {
  const { counter } = parseOptions(LedgerOptions, options, 'createTokenLedger');
  return new PathLedger(path, counter);
}

/** The ledger behind `createTokenLedger`: a class, so its methods and accessors live once on the prototype rather than in every ledger. */
class PathLedger implements TokenLedger {
  readonly #entries: Entry[];
  readonly #counter: TokenCounter | undefined;
  #base = 0;
  #trailing = 0;
  #anchored = false;

  constructor(path: readonly Entry[], counter: TokenCounter | undefined) {
    this.#entries = path.slice();
    this.#counter = counter;
    // Load: anchor on the last trusted usage after the latest compaction, estimate what follows.
    const entries = this.#entries;
    const compaction = lastCompactionIndex(entries);
    let anchor = -1;
    for (let i = entries.length - 1; i > compaction; i--) {
      const entry = entries[i]!;
      const usage = entry.kind === 'message' ? anchorUsage(entry.message, entryWhere(entry)) : undefined;
      if (usage) {
        anchor = i;
        this.#base = calculateContextTokens(usage);
        this.#anchored = true;
        break;
      }
    }
    if (anchor < 0 && compaction >= 0) this.#base = this.#afterCompaction(compaction);
    for (let i = Math.max(anchor, compaction) + 1; i < entries.length; i++) this.#addTrailing(entries[i]!);
  }

  get length(): number {
    return this.#entries.length;
  }

  get tokens(): number {
    return this.#base + this.#trailing;
  }

  get anchored(): boolean {
    return this.#anchored;
  }

  estimate(): LedgerEstimate {
    const anchored = this.#anchored;
    return {
      tokens: this.#base + this.#trailing,
      anchored,
      usageTokens: anchored ? this.#base : 0,
      trailingTokens: anchored ? this.#trailing : this.#base + this.#trailing,
    };
  }

  append(entry: Entry): void {
    this.#entries.push(entry);
    switch (entry.kind) {
      case 'compaction':
        this.#base = this.#afterCompaction(this.#entries.length - 1);
        this.#trailing = 0;
        this.#anchored = false;
        return;
      case 'message': {
        const usage = anchorUsage(entry.message, entryWhere(entry));
        if (usage) {
          this.#base = calculateContextTokens(usage);
          this.#trailing = 0;
          this.#anchored = true;
        } else this.#addTrailing(entry);
        return;
      }
      case 'branch_summary':
      case 'custom':
        this.#addTrailing(entry);
        return;
      default: {
        const unknownEntry: never = entry;
        throw new TypeError(`unknown entry kind ${JSON.stringify(unknownEntry)}`);
      }
    }
  }

  appendAll(more: Iterable<Entry>): void {
    for (const entry of more) this.append(entry);
  }

  /**
   * Estimate of the context from the compaction at `index`: its summary and what it keeps, as
   * collected, not repaired. Repaired on their own, kept entries that end inside a tool batch
   * (damage: its results come after the compaction) would get a placeholder result for each call
   * that the whole path, repaired, never sends. Counted unrepaired they add up with the entries
   * after them to what is sent whenever the repair only moves messages.
   */
  #afterCompaction(index: number): number {
    // When its first kept entry is not on the path, the compaction keeps nothing but its summary.
    const start = Math.min(keptStartIndex(this.#entries, index), index);
    let total = 0;
    for (const message of collectContext(this.#entries.slice(start, index + 1))) total += estimateTokens(message, this.#counter);
    return total;
  }

  #addTrailing(entry: Entry): void {
    const message = entryMessage(entry);
    if (message) this.#trailing += estimateMessageTokens(message, this.#counter, entryWhere(entry));
  }
}

/** How a ledger's error names an entry. */
function entryWhere(entry: Entry): string {
  return `token ledger: entry ${JSON.stringify(entry.id)}`;
}

/**
 * The estimated size of the context `buildContext(path)` gives, anchored on the last trusted
 * usage reported after the latest compaction (usage from before it measured a context that no
 * longer exists).
 */
export function estimatePathContextTokens(path: readonly Entry[], options: LedgerOptions = {}): LedgerEstimate {
  return createTokenLedger(path, options).estimate();
}
