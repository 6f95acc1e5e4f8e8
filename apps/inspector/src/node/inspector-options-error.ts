/**
 * A function of the inspector was given a bad option: the message names the function, the option
 * and what it should be. Thrown before anything listens or is written.
 */
export class InspectorOptionsError extends Error {
  override readonly name = 'InspectorOptionsError';
  readonly code = 'invalid_options';
  constructor(
    readonly entryPoint: string,
    /** The option's name, or undefined when the options are not an object at all. */
    readonly option: string | undefined,
    readonly reason: string,
  ) {
    super(option === undefined ? `${entryPoint}: ${reason}` : `${entryPoint}: option ${option}: ${reason}`);
  }

  /** Also true for an error made by another installed copy of the package (it checks the name and code, not the class). */
  static isInstance(value: unknown): value is InspectorOptionsError {
    return value instanceof Error && value.name === 'InspectorOptionsError' && (value as { code?: unknown }).code === 'invalid_options';
  }
}
