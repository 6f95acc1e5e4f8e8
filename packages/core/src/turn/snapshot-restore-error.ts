import { hasCoreMarker, TillerCoreError } from '../errors/tiller-core-error.js';

/** A persisted snapshot that is not JSON or does not fit the turn machine. */
export class SnapshotRestoreError extends TillerCoreError {
  override readonly name = 'SnapshotRestoreError';

  constructor(message: string) {
    super('invalid_snapshot', message);
  }

  static override isInstance(value: unknown): value is SnapshotRestoreError {
    return hasCoreMarker(value, 'SnapshotRestoreError');
  }
}
