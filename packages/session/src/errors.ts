/** Where in a file something went wrong: the file, its 1-based line (0: the whole file), and the field (a zod issue path). */
export interface FileLocation {
  file: string;
  line: number;
  field?: string | undefined;
}

function where(location: FileLocation): string {
  // Line 0: the file as a whole (it cannot be read or created).
  const line = location.line > 0 ? `:${location.line}` : '';
  const field = location.field ? `, field ${location.field}` : '';
  return `${location.file}${line}${field}`;
}

/** Why an `append` was refused. Nothing of the refused batch was written. */
export type AppendErrorCode = 'duplicate_id' | 'missing_parent' | 'invalid_entry' | 'read_only' | 'closed';

/**
 * Why a session file could not be opened: `not_found` (no file there and `create` was not given),
 * `unreadable` (the system refused to read or create it), `invalid` (its content: a bad header, a
 * bad line in strict mode, a version that can only be read).
 */
export type SessionFileErrorCode = 'not_found' | 'unreadable' | 'invalid';

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
function isNamed(value: unknown, name: string): boolean {
  return isMarked(value) && value.name === name;
}

export class AppendError extends SessionError {
  override readonly name = 'AppendError';
  constructor(
    readonly code: AppendErrorCode,
    /** The id of the offending entry (its position in the batch when it has no usable id). */
    readonly entryId: string,
    message: string,
  ) {
    super(message);
  }

  static override isInstance(value: unknown): value is AppendError {
    return isNamed(value, 'AppendError');
  }
}

/** `path`, `branch`, `children` or `context` named an entry the log does not hold. */
export class UnknownEntryError extends SessionError {
  override readonly name = 'UnknownEntryError';
  readonly code = 'unknown_entry';
  constructor(readonly entryId: string) {
    super(`no entry with id "${entryId}" in this session`);
  }

  static override isInstance(value: unknown): value is UnknownEntryError {
    return isNamed(value, 'UnknownEntryError');
  }
}

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

/** An error about a place in a file: its message starts with `file:line, field name:`. */
abstract class LocatedError extends SessionError {
  constructor(
    readonly location: FileLocation,
    readonly reason: string,
  ) {
    super(`${where(location)}: ${reason}`);
  }
}

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

/** A pi session that cannot be imported; names the line of the pi file and the field. */
export class PiImportError extends LocatedError {
  override readonly name = 'PiImportError';
  readonly code = 'invalid_pi_session';

  static override isInstance(value: unknown): value is PiImportError {
    return isNamed(value, 'PiImportError');
  }
}

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
