const MARKER = Symbol.for('tiller.core.error');

/** What went wrong, for a program: each error of @tiller/core carries one of these. */
export type CoreErrorCode = 'invalid_turn_config' | 'invalid_snapshot' | 'model_failed';

/**
 * The base of every error @tiller/core throws. `isInstance` checks a marker that every copy of
 * the package sets alike, so it holds where `instanceof` fails (two installed copies).
 */
export class TillerCoreError extends Error {
  override readonly name: string = 'TillerCoreError';
  readonly code: CoreErrorCode;
  readonly [MARKER] = true;

  constructor(code: CoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  static isInstance(value: unknown): value is TillerCoreError {
    return hasCoreMarker(value);
  }
}

/** Whether `value` is an error of @tiller/core (any copy), of the class named `name` when given. */
export function hasCoreMarker(value: unknown, name?: string): boolean {
  if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[MARKER] !== true) return false;
  return name === undefined || (value as Error).name === name;
}
