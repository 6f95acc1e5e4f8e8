import type { FileLocation } from './file-location.js';
import { LocatedError } from './located-error.js';
import { isNamed, type SessionFileErrorCode } from './session-error.js';

/** A session file that cannot be opened as it stands: missing, unreadable, or a bad header or line. */
export class SessionFileError extends LocatedError {
  override readonly name = 'SessionFileError';
  readonly code: SessionFileErrorCode;
  constructor(location: FileLocation, reason: string, code: SessionFileErrorCode = 'invalid') {
    super(location, reason);
    this.code = code;
  }

  static override isInstance(value: unknown): value is SessionFileError {
    return isNamed(value, 'SessionFileError');
  }
}
