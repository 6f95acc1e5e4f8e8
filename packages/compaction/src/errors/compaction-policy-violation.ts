import { TillerCompactionError } from './tiller-compaction-error.js';

/** The numbers behind a broken premise, so a host can act on them without parsing the message. */
export type PolicyViolationFacts =
  /** Turn `turn` was asked for; the policy allows `maxTurns`. */
  | { kind: 'turn_cap'; turn: number; maxTurns: number }
  /** The context holds `contextTokens`, over `limit` (`contextWindow - reserveTokens`). */
  | { kind: 'context_over_window'; contextTokens: number; limit: number; contextWindow: number; reserveTokens: number }
  /** The context holds `contextTokens` after `turnsUsed` turns, over `limit` (`turnsUsed x maxTokensPerTurn`). */
  | { kind: 'turn_budget'; contextTokens: number; limit: number; turnsUsed: number; maxTokensPerTurn: number }
  /** `turn` is not a positive integer. */
  | { kind: 'bad_turn_number'; turn: number };

/** A premise the policy rests on broke while the session ran (too many turns, a context too large). */
export class CompactionPolicyViolation extends TillerCompactionError {
  static override readonly codes = ['policy_violated'] as const;
  override readonly name = 'CompactionPolicyViolation';
  readonly code = 'policy_violated';
  readonly facts: PolicyViolationFacts;

  constructor(message: string, facts: PolicyViolationFacts) {
    super(message);
    this.facts = facts;
  }
}
