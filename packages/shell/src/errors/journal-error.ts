import { ShellError } from './shell-error.js';

/** A journal that cannot be read or replayed; the message names the line, or the versions. */
export class JournalError extends ShellError {
  static override readonly code = 'invalid_journal';
  override readonly name = 'JournalError';
}
