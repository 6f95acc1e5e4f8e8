import { DurableError, hasDurableMarker } from './durable-error.js';

/** Options that cannot be used: the message names the entry point, the option and what was expected. */
export class DurableOptionsError extends DurableError {
  override readonly name = 'DurableOptionsError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_options', message, options);
  }

  static override isInstance(value: unknown): value is DurableOptionsError {
    return hasDurableMarker(value, 'DurableOptionsError');
  }
}
