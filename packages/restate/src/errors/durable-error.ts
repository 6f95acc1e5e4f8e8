const MARKER = Symbol.for('tiller.restate.error');

/** What went wrong, for a program: each error of @tiller/restate carries one of these. */
export type DurableErrorCode = 'invalid_options' | 'invalid_message' | 'ingress_failed' | 'local_server_failed';

/**
 * The base of every error @tiller/restate throws. `isInstance` checks a marker that every copy of
 * the package sets alike, so it holds where `instanceof` fails (two installed copies).
 */
export class DurableError extends Error {
  override readonly name: string = 'DurableError';
  readonly code: DurableErrorCode;
  readonly [MARKER] = true;

  constructor(code: DurableErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  static isInstance(value: unknown): value is DurableError {
    return hasDurableMarker(value);
  }
}

/** Whether `value` is an error of @tiller/restate (any copy), of the class named `name` when given. */
export function hasDurableMarker(value: unknown, name?: string): boolean {
  if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[MARKER] !== true) return false;
  return name === undefined || (value as Error).name === name;
}
