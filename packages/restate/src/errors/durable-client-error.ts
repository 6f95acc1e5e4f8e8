import { DurableError } from './durable-error.js';

/** A call to the Restate ingress failed, or a turn's invocation did: the message names the call and why. */
export class DurableClientError extends DurableError {
  static override readonly code = 'ingress_failed';
  override readonly name = 'DurableClientError';
}
