/**
 * Why an `append` was refused. Nothing of the refused batch was written; for `write_failed` (the
 * file system refused the write: a full disk, a file size limit) the store cut off what it had
 * written of it, and the error's message says if it could not. `write_failed` is also what a
 * `JsonlStore` says once a sync of appends that had resolved failed: to that append or later ones,
 * and to `flush` and `close` (the message names the entries that may not be on the disk).
 */
export type AppendErrorCode = 'duplicate_id' | 'missing_parent' | 'invalid_entry' | 'read_only' | 'closed' | 'write_failed';

/**
 * Why a session file could not be opened: `not_found` (no file there and `create` was not given),
 * `unreadable` (the system refused to read it), `unwritable` (the system refused to create it or
 * its lock file: a full disk, a read-only file system, no permission), `invalid` (its content: a
 * bad header, a bad line in strict mode, a version that can only be read).
 */
export type SessionFileErrorCode = 'not_found' | 'unreadable' | 'unwritable' | 'invalid';

export type SessionErrorCode =
  | AppendErrorCode
  | SessionFileErrorCode
  | 'unknown_entry'
  | 'locked'
  | 'invalid_pi_session'
  | 'invalid_options'
  | 'invalid_store';

// A registered symbol: the same in every copy of this package a process loads, so `isInstance`
// recognises an error thrown by another installed copy, where `instanceof` would not.
const MARKER = Symbol.for('tiller.session.error');

function isMarked(value: unknown): value is SessionError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

/** The base of every error @tiller/session throws on purpose. `code` says which failure it is. */
export abstract class SessionError extends Error {
  readonly [MARKER] = true;
  abstract readonly code: SessionErrorCode;

  /** True for an error of @tiller/session, from this copy of the package or from another one. */
  static isInstance(value: unknown): value is SessionError {
    return isMarked(value);
  }
}

/** `isInstance` for a subclass: the marker, and the class's name. */
export function isNamed(value: unknown, name: string): boolean {
  return isMarked(value) && value.name === name;
}
