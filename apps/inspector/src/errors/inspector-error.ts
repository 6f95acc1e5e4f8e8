const MARKER = Symbol.for('tiller.inspector.error');

/** What went wrong, for a host that handles errors by kind rather than by message. */
export type InspectorErrorCode = 'invalid_options' | 'invalid_source';

/**
 * The base of every error `@tiller/inspector` throws; each subclass declares its `code`.
 * `isInstance` recognises one made by another installed copy of the package too (the `tiller`
 * command and a host may each have one): it checks a `Symbol.for` marker and the code, not the
 * prototype chain.
 */
export abstract class InspectorError extends Error {
  /** The code every error of the class carries (each subclass sets its own). */
  static readonly code: InspectorErrorCode | undefined = undefined;
  readonly [MARKER] = true;
  readonly code: InspectorErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = (new.target as unknown as { code: InspectorErrorCode }).code;
  }

  /** `InspectorError.isInstance(e)`: any inspector error; `InspectorSourceError.isInstance(e)`: that class's code only. */
  static isInstance<T extends abstract new (...args: never[]) => InspectorError>(this: T & { code?: InspectorErrorCode | undefined }, error: unknown): error is InstanceType<T> {
    if (typeof error !== 'object' || error === null || (error as { [MARKER]?: unknown })[MARKER] !== true) return false;
    return this.code === undefined || (error as InspectorError).code === this.code;
  }
}
