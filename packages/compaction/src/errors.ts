const MARKER = Symbol.for('tiller.compaction.error');

/** Every code a `@tiller/compaction` error carries. */
export type TillerCompactionErrorCode = CompactionErrorCode | 'invalid_config' | 'policy_unfit' | 'policy_violated';

/**
 * The base of every error `@tiller/compaction` throws. `isInstance` recognises one made by another
 * installed copy of the package too (it checks a `Symbol.for` marker, not the prototype chain).
 */
export class TillerCompactionError extends Error {
  readonly [MARKER] = true;
  readonly code: TillerCompactionErrorCode;

  constructor(code: TillerCompactionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  static isInstance(error: unknown): error is TillerCompactionError {
    return typeof error === 'object' && error !== null && (error as { [MARKER]?: unknown })[MARKER] === true;
  }
}

/** Why a compaction could not be made. The log is never touched when one of these is thrown. */
export type CompactionErrorCode = 'aborted' | 'summarization_failed' | 'invalid_session';

export class CompactionError extends TillerCompactionError {
  override readonly name = 'CompactionError';
  declare readonly code: CompactionErrorCode;

  constructor(code: CompactionErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }

  static override isInstance(error: unknown): error is CompactionError {
    return TillerCompactionError.isInstance(error) && (error.code === 'aborted' || error.code === 'summarization_failed' || error.code === 'invalid_session');
  }
}

/**
 * A compactor, a setting or a policy was configured wrongly. Thrown at configuration time; the
 * message names where the option was given (`entryPoint`) and which option is wrong.
 */
export class CompactionConfigError extends TillerCompactionError {
  override readonly name = 'CompactionConfigError';
  readonly entryPoint: string;
  readonly option: string | undefined;

  constructor(entryPoint: string, option: string | undefined, detail: string) {
    super('invalid_config', option ? `${entryPoint}: option "${option}" ${detail}` : `${entryPoint}: ${detail}`);
    this.entryPoint = entryPoint;
    this.option = option;
  }

  static override isInstance(error: unknown): error is CompactionConfigError {
    return TillerCompactionError.isInstance(error) && error.code === 'invalid_config';
  }
}

/** A policy cannot hold for this configuration: a bad option, an unknown model, a budget that does not fit. */
export class CompactionPolicyError extends TillerCompactionError {
  override readonly name = 'CompactionPolicyError';

  constructor(message: string) {
    super('policy_unfit', message);
  }

  static override isInstance(error: unknown): error is CompactionPolicyError {
    return TillerCompactionError.isInstance(error) && error.code === 'policy_unfit';
  }
}

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
  override readonly name = 'CompactionPolicyViolation';
  readonly facts: PolicyViolationFacts;

  constructor(message: string, facts: PolicyViolationFacts) {
    super('policy_violated', message);
    this.facts = facts;
  }

  static override isInstance(error: unknown): error is CompactionPolicyViolation {
    return TillerCompactionError.isInstance(error) && error.code === 'policy_violated';
  }
}
