import { Entry } from '@tiller/core';
import { SessionFileError, type ReadWarning } from '../errors.js';
import { checkEntryShape } from './check-entry-shape.js';
import { HEADER_TYPE, migrationFrom, SESSION_FORMAT_VERSION, type SessionFileHeader } from './format.js';

export interface ParseOptions {
  /** The file name for errors and warnings. */
  file: string;
  /** Fail on the first bad line, and validate every entry against the full schema. */
  strict: boolean;
}

export interface ParsedSessionFile {
  header: SessionFileHeader;
  /** The version the file was written in (entries are already migrated to the current one). */
  version: number;
  entries: Entry[];
  /** The same entries by id, built while reading: the session log adopts it instead of indexing again. */
  byId: Map<string, Entry>;
  warnings: ReadWarning[];
  /** Bytes at the end of the file that belong to a torn last line (0 when the last line is whole). */
  tornBytes: number;
  /** False when the last whole line has no newline after it (the next write must add one). */
  endsWithNewline: boolean;
}

const NEWLINE = 0x0a;

/**
 * Reads a session file's bytes in one pass. A last line cut off mid-write (no newline after it
 * and not parseable) is skipped with a warning; a bad line elsewhere is skipped with a warning
 * naming its line, or, in strict mode, fails. Entries that repeat an id are bad lines too.
 *
 * Each line is decoded from the bytes on its own, never the file as one string: a single
 * non-ASCII character would make that string two bytes a character (twice the file's size held
 * beside the bytes), and `JSON.parse` reads short one-byte strings faster.
 */
export function parseSessionFile(bytes: Buffer, options: ParseOptions): ParsedSessionFile {
  const { file, strict } = options;
  const warnings: ReadWarning[] = [];
  let tornBytes = 0;

  const bad = (line: number, field: string, reason: string) => {
    if (strict) throw new SessionFileError({ file, line, field }, reason);
    warnings.push({ line, kind: 'corrupt_line', message: `${file}:${line}, field ${field}: ${reason}; line skipped` });
  };

  const headerEnd = bytes.indexOf(NEWLINE);
  const header = parseHeader(bytes.toString('utf8', 0, headerEnd < 0 ? bytes.length : headerEnd), file, headerEnd < 0);
  const migrate = migrationFrom(header.version);
  const entries: Entry[] = [];
  const byId = new Map<string, Entry>();
  // Most entries follow the one before them: their parent needs no lookup.
  let previousId: string | null = null;

  // `line` is the 1-based number of the line that starts at `start`; the header is line 1.
  for (let start = headerEnd < 0 ? bytes.length : headerEnd + 1, line = 2; start < bytes.length; line++) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    const lineStart = start;
    start = end + 1;
    if (end === lineStart) continue;
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8', lineStart, end));
    } catch {
      if (newline < 0) {
        // No newline after it: the writer died mid-line. Everything before it stands.
        tornBytes = end - lineStart;
        warnings.push({ line, kind: 'torn_line', message: `${file}:${line}: the last line is incomplete (a write was cut off); skipped` });
      } else {
        bad(line, '(line)', 'not valid JSON');
      }
      continue;
    }
    if (migrate && typeof value === 'object' && value !== null) value = migrate(value as Record<string, unknown>);
    const problem = checkEntryShape(value);
    if (problem) {
      bad(line, problem.field, problem.reason);
      continue;
    }
    const entry = value as Entry;
    if (strict) {
      const parsed = Entry.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new SessionFileError({ file, line, field: issue.path.join('.') || '(entry)' }, issue.message);
      }
    }
    const { id, parentId } = entry;
    if (byId.has(id)) {
      bad(line, 'id', `duplicate id "${id}"`);
      continue;
    }
    if (parentId !== null && parentId !== previousId && !byId.has(parentId)) {
      const reason = `parent "${parentId}" is not an earlier entry`;
      if (strict) throw new SessionFileError({ file, line, field: 'parentId' }, reason);
      // Kept: its path starts here now. Dropping it would lose the entries after it as well.
      warnings.push({ line, kind: 'corrupt_line', message: `${file}:${line}, field parentId: ${reason}; kept as a root` });
    }
    byId.set(id, entry);
    entries.push(entry);
    previousId = id;
  }
  return {
    header,
    version: header.version,
    entries,
    byId,
    warnings,
    tornBytes,
    endsWithNewline: tornBytes > 0 || bytes.length === 0 || bytes[bytes.length - 1] === NEWLINE,
  };
}

export function parseHeader(text: string, file: string, onlyLine: boolean): SessionFileHeader {
  const at = (field: string) => ({ file, line: 1, field });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const reason = onlyLine && text !== '' ? 'the header line is incomplete' : 'the first line is not a session header (not JSON)';
    throw new SessionFileError(at('(line)'), reason);
  }
  const header = value as Partial<SessionFileHeader> | null;
  if (typeof header !== 'object' || header === null || header.type !== HEADER_TYPE) {
    throw new SessionFileError(at('type'), `the first line is not a session header (expected "type": "${HEADER_TYPE}")`);
  }
  if (typeof header.version !== 'number' || !Number.isInteger(header.version) || header.version < 1) {
    throw new SessionFileError(at('version'), 'expected a positive integer format version');
  }
  if (header.version > SESSION_FORMAT_VERSION) {
    throw new SessionFileError(
      at('version'),
      `format version ${header.version} is newer than this version of @tiller/session reads (up to ${SESSION_FORMAT_VERSION})`,
    );
  }
  if (typeof header.id !== 'string' || !header.id) throw new SessionFileError(at('id'), 'expected a non-empty session id');
  return header as SessionFileHeader;
}
