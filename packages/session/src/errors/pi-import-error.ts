import { LocatedError } from './located-error.js';
import { isNamed } from './session-error.js';

/** A pi session that cannot be imported; names the line of the pi file and the field. */
export class PiImportError extends LocatedError {
  override readonly name = 'PiImportError';
  readonly code = 'invalid_pi_session';

  static override isInstance(value: unknown): value is PiImportError {
    return isNamed(value, 'PiImportError');
  }
}
