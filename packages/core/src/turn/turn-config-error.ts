import { hasCoreMarker, TillerCoreError } from '../errors/tiller-core-error.js';

/** A turn config that cannot be used: the message names the field and what was expected. */
export class TurnConfigError extends TillerCoreError {
  override readonly name = 'TurnConfigError';

  constructor(message: string) {
    super('invalid_turn_config', message);
  }

  static override isInstance(value: unknown): value is TurnConfigError {
    return hasCoreMarker(value, 'TurnConfigError');
  }
}
