import type { FileLocation } from './errors/index.js';

/**
 * Something a read skipped or changed while the rest loaded. `message` says it in one line:
 * `file:line, field f: reason; what was done`.
 * - `torn_line`: the last line was cut off mid-write; skipped.
 * - `corrupt_line`: a line that is not a valid entry (not JSON, a missing or mistyped field); skipped.
 * - `repeated_id`: an entry line whose id a later entry line repeats; the later line wins, this one is skipped.
 * - `skipped_parent`: an entry whose parent was on a skipped line (corrupt, but with its id and
 *   parent readable); joined to the nearest kept entry on its path, or kept as a root when there is none.
 * - `missing_parent`: an entry whose parent is not on an earlier line; kept, as a root.
 * - `dropped_field`: an optional field the schema refuses (a usage without `totalTokens`); the field
 *   is dropped and the entry kept.
 */
export interface ReadWarning {
  kind: 'torn_line' | 'corrupt_line' | 'repeated_id' | 'skipped_parent' | 'missing_parent' | 'dropped_field';
  file: string;
  /** 1-based; the header is line 1. */
  line: number;
  /** The field at fault (a path such as `message.role`), when there is one. */
  field?: string | undefined;
  reason: string;
  message: string;
}

const DONE: Record<ReadWarning['kind'], string> = {
  torn_line: 'skipped',
  corrupt_line: 'line skipped',
  repeated_id: 'line skipped, the later line wins',
  skipped_parent: 'joined to the nearest kept entry on its path',
  missing_parent: 'kept as a root',
  dropped_field: 'field dropped, entry kept',
};

/** `done` says what became of the line, when more than its kind says (which field was dropped). */
export function readWarning(kind: ReadWarning['kind'], at: FileLocation, reason: string, done = DONE[kind]): ReadWarning {
  const field = at.field ? `, field ${at.field}` : '';
  const warning: ReadWarning = { kind, file: at.file, line: at.line, reason, message: `${at.file}:${at.line}${field}: ${reason}; ${done}` };
  if (at.field) warning.field = at.field;
  return warning;
}
