import { hasCoreMarker, TillerCoreError } from '../errors/tiller-core-error.js';

export type ModelErrorKind = 'transient' | 'overflow' | 'fatal';

/** A failed model call, classified so the shell knows whether to retry, compact or give up. */
export class ModelError extends TillerCoreError {
  override readonly name = 'ModelError';
  readonly kind: ModelErrorKind;
  /** For `transient`: how long the provider asked us to wait (Retry-After). */
  readonly retryAfterMs: number | undefined;

  constructor(kind: ModelErrorKind, message: string, options: { retryAfterMs?: number | undefined; cause?: unknown } = {}) {
    super('model_failed', message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.retryAfterMs = options.retryAfterMs;
  }

  static override isInstance(value: unknown): value is ModelError {
    return hasCoreMarker(value, 'ModelError');
  }
}
