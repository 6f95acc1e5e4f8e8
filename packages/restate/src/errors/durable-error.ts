const MARKER = Symbol.for('tiller.restate.error');

/** What went wrong, for a host that handles errors by kind rather than by message. */
export type DurableErrorCode = 'invalid_options' | 'invalid_message' | 'ingress_failed' | 'local_server_failed';

/**
 * The base of every error `@tiller/restate` throws; each subclass declares its `code`.
 * `isInstance` recognises one made by another installed copy of the package too: it checks a
 * `Symbol.for` marker and the code, not the prototype chain.
 */
export abstract class DurableError extends Error {
  /** The code every error of the class carries (each subclass sets its own). */
  static readonly code: DurableErrorCode | undefined = undefined;
  readonly [MARKER] = true;
  readonly code: DurableErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = (new.target as unknown as { code: DurableErrorCode }).code;
  }

  /** `DurableError.isInstance(e)`: any error of this package; `DurableClientError.isInstance(e)`: that class's code only. */
  static isInstance<T extends abstract new (...args: never[]) => DurableError>(this: T & { code?: DurableErrorCode | undefined }, error: unknown): error is InstanceType<T> {
    if (typeof error !== 'object' || error === null || (error as { [MARKER]?: unknown })[MARKER] !== true) return false;
    return this.code === undefined || (error as DurableError).code === this.code;
  }
}
