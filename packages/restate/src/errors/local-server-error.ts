import { DurableError, hasDurableMarker } from './durable-error.js';

/** The local Restate server could not be found, started or used. */
export class LocalServerError extends DurableError {
  override readonly name = 'LocalServerError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('local_server_failed', message, options);
  }

  static override isInstance(value: unknown): value is LocalServerError {
    return hasDurableMarker(value, 'LocalServerError');
  }
}
