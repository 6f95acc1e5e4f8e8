import { ShellError } from './shell-error.js';

/** `prompt`, `steer` or `followUp` given something that is not a message: empty text, a number, a malformed user message. */
export class InvalidMessageError extends ShellError {
  static override readonly code = 'invalid_message';
  override readonly name = 'InvalidMessageError';
}
