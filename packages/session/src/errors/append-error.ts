import { type AppendErrorCode, isNamed, SessionError } from './session-error.js';

export class AppendError extends SessionError {
  override readonly name = 'AppendError';
  constructor(
    readonly code: AppendErrorCode,
    /** The id of the offending entry (its position in the batch when it has no usable id). */
    readonly entryId: string,
    message: string,
    /** For `write_failed`: the file system's error (its `code`: `ENOSPC`, `EFBIG`, ...). */
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static override isInstance(value: unknown): value is AppendError {
    return isNamed(value, 'AppendError');
  }
}
