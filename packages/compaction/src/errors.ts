const MARKER = Symbol.for('tiller.compaction.error');

/** Every code a `@tiller/compaction` error carries. */
export type TillerCompactionErrorCode = CompactionErrorCode | 'invalid_config' | 'policy_unfit' | 'policy_violated' | 'malformed_message';

/**
 * The base of every error `@tiller/compaction` throws; each subclass lists the codes its errors
 * carry. `isInstance` recognises one made by another installed copy of the package too: it checks
 * a `Symbol.for` marker and the code, not the prototype chain.
 */
export abstract class TillerCompactionError extends Error {
  /** The codes of the class's errors; the base takes any. */
  static readonly codes: readonly TillerCompactionErrorCode[] | undefined = undefined;
  readonly [MARKER] = true;
  abstract readonly code: TillerCompactionErrorCode;

  static isInstance<T extends abstract new (...args: never[]) => TillerCompactionError>(
    this: T & { codes?: readonly TillerCompactionErrorCode[] | undefined },
    error: unknown,
  ): error is InstanceType<T> {
    const marked = typeof error === 'object' && error !== null && (error as { [MARKER]?: unknown })[MARKER] === true;
    return marked && (this.codes === undefined || this.codes.includes((error as TillerCompactionError).code));
  }
}

/** Why a compaction could not be made. The log is never touched when one of these is thrown. */
export type CompactionErrorCode = 'aborted' | 'summarization_failed' | 'invalid_session';

export class CompactionError extends TillerCompactionError {
  static override readonly codes: readonly CompactionErrorCode[] = ['aborted', 'summarization_failed', 'invalid_session'];
  override readonly name = 'CompactionError';
  readonly code: CompactionErrorCode;

  constructor(code: CompactionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * A compactor, a setting or a policy was configured wrongly. Thrown at configuration time; the
 * message names where the option was given (`entryPoint`) and which option is wrong.
 */
export class CompactionConfigError extends TillerCompactionError {
  static override readonly codes = ['invalid_config'] as const;
  override readonly name = 'CompactionConfigError';
  readonly code = 'invalid_config';
  readonly entryPoint: string;
  readonly option: string | undefined;

  constructor(entryPoint: string, option: string | undefined, detail: string) {
    super(option ? `${entryPoint}: option "${option}" ${detail}` : `${entryPoint}: ${detail}`);
    this.entryPoint = entryPoint;
    this.option = option;
  }
}

/**
 * A message handed to a token estimate is not what the schema says (content that is null or a
 * number, a part of an unknown type, a text that is not a string): it cannot be counted, and a
 * count of what could be read would be a context size that is wrong without saying so. `where`
 * names the call and the message (`estimateContextTokens: messages[3]`), `field` the bad field
 * within it (`content[1].text`).
 */
export class MalformedMessageError extends TillerCompactionError {
  static override readonly codes = ['malformed_message'] as const;
  override readonly name = 'MalformedMessageError';
  readonly code = 'malformed_message';
  readonly where: string;
  readonly field: string;

  constructor(where: string, field: string, reason: string, options?: { cause?: unknown }) {
    super(`${where} is malformed at ${field}: ${reason}`, options);
    this.where = where;
    this.field = field;
  }
}

/** A policy cannot hold for this configuration: a bad option, an unknown model, a budget that does not fit. */
export class CompactionPolicyError extends TillerCompactionError {
  static override readonly codes = ['policy_unfit'] as const;
  override readonly name = 'CompactionPolicyError';
  readonly code = 'policy_unfit';
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
  static override readonly codes = ['policy_violated'] as const;
  override readonly name = 'CompactionPolicyViolation';
  readonly code = 'policy_violated';
  readonly facts: PolicyViolationFacts;

  constructor(message: string, facts: PolicyViolationFacts) {
    super(message);
    this.facts = facts;
  }
}
