import { isNamed, SessionError } from './session-error.js';

/** Another writer holds the session file. */
export class SessionLockedError extends SessionError {
  override readonly name = 'SessionLockedError';
  readonly code = 'locked';
  constructor(
    readonly file: string,
    /** The process id written in the lock file, when it could be read. */
    readonly holderPid: number | undefined,
  ) {
    const holder = holderPid === undefined ? 'another writer' : `process ${holderPid}`;
    super(`session is locked: ${file} is open for writing by ${holder} (lock file ${file}.lock)`);
  }

  static override isInstance(value: unknown): value is SessionLockedError {
    return isNamed(value, 'SessionLockedError');
  }
}
