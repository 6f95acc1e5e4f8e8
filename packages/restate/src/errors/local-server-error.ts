import { DurableError } from './durable-error.js';

/** The local Restate server could not be found, started or used. */
export class LocalServerError extends DurableError {
  static override readonly code = 'local_server_failed';
  override readonly name = 'LocalServerError';
}
