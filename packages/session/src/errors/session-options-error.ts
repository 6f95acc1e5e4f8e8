import { isNamed, SessionError } from './session-error.js';

/**
 * An argument of a public function that is not what it accepts: `entryPoint` names the function
 * (`JsonlStore.open`), `option` the option (`create.id`; `(options)` for the object itself).
 */
export class SessionOptionsError extends SessionError {
  override readonly name = 'SessionOptionsError';
  readonly code = 'invalid_options';
  constructor(
    readonly entryPoint: string,
    readonly option: string,
    readonly reason: string,
  ) {
    super(`${entryPoint}: option ${option}: ${reason}`);
  }

  static override isInstance(value: unknown): value is SessionOptionsError {
    return isNamed(value, 'SessionOptionsError');
  }
}
