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
