import { isNamed, SessionError } from './session-error.js';

/** `path`, `branch`, `children` or `context` named an entry the log does not hold. */
export class UnknownEntryError extends SessionError {
  override readonly name = 'UnknownEntryError';
  readonly code = 'unknown_entry';
  constructor(readonly entryId: string) {
    super(`no entry with id "${entryId}" in this session`);
  }

  static override isInstance(value: unknown): value is UnknownEntryError {
    return isNamed(value, 'UnknownEntryError');
  }
}
