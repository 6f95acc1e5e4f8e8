import { DurableError } from './durable-error.js';

/** A prompt, steer or follow-up that is not a user message, or an approval that is not a list of decisions: the message says where it is wrong. */
export class InvalidMessageError extends DurableError {
  static override readonly code = 'invalid_message';
  override readonly name = 'InvalidMessageError';
}
