import { DurableError } from './durable-error.js';

/** Options that cannot be used: the message names the entry point, the option and what was expected. */
export class DurableOptionsError extends DurableError {
  static override readonly code = 'invalid_options';
  override readonly name = 'DurableOptionsError';
}
