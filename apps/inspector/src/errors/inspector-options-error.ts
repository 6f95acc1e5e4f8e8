import { InspectorError } from './inspector-error.js';

/**
 * A function of the inspector was given a bad option: the message names the function, the option
 * and what it should be. Thrown before anything listens or is written.
 */
export class InspectorOptionsError extends InspectorError {
  static override readonly code = 'invalid_options';
  override readonly name = 'InspectorOptionsError';
  constructor(
    readonly entryPoint: string,
    /** The option's name, or undefined when the options are not an object at all. */
    readonly option: string | undefined,
    readonly reason: string,
  ) {
    super(option === undefined ? `${entryPoint}: ${reason}` : `${entryPoint}: option ${option}: ${reason}`);
  }
}
