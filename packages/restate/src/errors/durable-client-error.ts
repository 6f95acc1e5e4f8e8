import { DurableError, hasDurableMarker } from './durable-error.js';

/**
 * A call to the Restate ingress failed, or a turn's invocation did (`ingress_failed`), or the
 * host handed a message that is not a user message (`invalid_message`): the message says which.
 */
export class DurableClientError extends DurableError {
  override readonly name = 'DurableClientError';

  constructor(message: string, options?: { cause?: unknown; code?: 'ingress_failed' | 'invalid_message' }) {
    super(options?.code ?? 'ingress_failed', message, options);
  }

  static override isInstance(value: unknown): value is DurableClientError {
    return hasDurableMarker(value, 'DurableClientError');
  }
}
