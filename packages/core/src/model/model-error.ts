export type ModelErrorKind = 'transient' | 'overflow' | 'fatal';

/** A failed model call, classified so the shell knows whether to retry, compact or give up. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  readonly kind: ModelErrorKind;
  /** For `transient`: how long the provider asked us to wait (Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(kind: ModelErrorKind, message: string, options: { retryAfterMs?: number | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.retryAfterMs = options.retryAfterMs;
  }
}
