import { ShellError } from './shell-error.js';

/** `approve` with a malformed decision, or for a call that is not waiting for one. */
export class ApprovalError extends ShellError {
  override readonly name = 'ApprovalError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_approval', message, options);
  }

  static override isInstance(error: unknown): error is ApprovalError {
    return ShellError.hasCode(error, 'invalid_approval');
  }
}
