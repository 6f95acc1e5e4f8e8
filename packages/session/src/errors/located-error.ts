import { type FileLocation, where } from './file-location.js';
import { SessionError } from './session-error.js';

/** An error about a place in a file: its message starts with `file:line, field name:`. */
export abstract class LocatedError extends SessionError {
  constructor(
    readonly location: FileLocation,
    readonly reason: string,
  ) {
    super(`${where(location)}: ${reason}`);
  }
}
