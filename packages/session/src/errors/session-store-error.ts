import { isNamed, SessionError } from './session-error.js';

/** `createSessionLog` was given something that is not a usable `SessionStore`. */
export class SessionStoreError extends SessionError {
  override readonly name = 'SessionStoreError';
  readonly code = 'invalid_store';
  constructor(reason: string) {
    super(`createSessionLog: the store ${reason}`);
  }

  static override isInstance(value: unknown): value is SessionStoreError {
    return isNamed(value, 'SessionStoreError');
  }
}
