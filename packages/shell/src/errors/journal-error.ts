import { ShellError } from './shell-error.js';

/** A journal that cannot be read or replayed; the message names the line, or the versions. */
export class JournalError extends ShellError {
  override readonly name = 'JournalError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_journal', message, options);
  }

  static override isInstance(error: unknown): error is JournalError {
    return ShellError.hasCode(error, 'invalid_journal');
  }
}
