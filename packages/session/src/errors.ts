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

export class AppendError extends Error {
  override readonly name = 'AppendError';
  constructor(
    readonly code: AppendErrorCode,
    /** The id of the offending entry (its position in the batch when it has no usable id). */
    readonly entryId: string,
    message: string,
  ) {
    super(message);
  }
}

/** `path`, `branch`, `children` or `context` named an entry the log does not hold. */
export class UnknownEntryError extends Error {
  override readonly name = 'UnknownEntryError';
  constructor(readonly entryId: string) {
    super(`no entry with id "${entryId}" in this session`);
  }
}

/** Another writer holds the session file. */
export class SessionLockedError extends Error {
  override readonly name = 'SessionLockedError';
  constructor(
    readonly file: string,
    /** The process id written in the lock file, when it could be read. */
    readonly holderPid: number | undefined,
  ) {
    const holder = holderPid === undefined ? 'another writer' : `process ${holderPid}`;
    super(`session is locked: ${file} is open for writing by ${holder} (lock file ${file}.lock)`);
  }
}

/** An error about a place in a file: its message starts with `file:line, field name:`. */
abstract class LocatedError extends Error {
  constructor(
    readonly location: FileLocation,
    readonly reason: string,
  ) {
    super(`${where(location)}: ${reason}`);
  }
}

/** A session file that cannot be read as it stands (bad header, a corrupt line in strict mode, ...). */
export class SessionFileError extends LocatedError {
  override readonly name = 'SessionFileError';
}

/** A pi session that cannot be imported; names the line of the pi file and the field. */
export class PiImportError extends LocatedError {
  override readonly name = 'PiImportError';
}

/** Something skipped while reading a file; the rest loaded. */
export interface ReadWarning {
  line: number;
  /** `torn_line`: the last line was cut off mid-write; `corrupt_line`: a line that is not a valid entry. */
  kind: 'torn_line' | 'corrupt_line';
  message: string;
}
