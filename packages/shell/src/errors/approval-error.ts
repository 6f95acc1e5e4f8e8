import { ShellError } from './shell-error.js';

/** `approve` with a malformed decision, or for a call that is not waiting for one. */
export class ApprovalError extends ShellError {
  static override readonly code = 'invalid_approval';
  override readonly name = 'ApprovalError';
}
