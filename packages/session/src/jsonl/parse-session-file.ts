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
  warnings: ReadWarning[];
  /** Bytes at the end of the file that belong to a torn last line (0 when the last line is whole). */
  tornBytes: number;
  /** False when the last whole line has no newline after it (the next write must add one). */
  endsWithNewline: boolean;
}

const NEWLINE = 0x0a;

/**
 * Reads a session file's bytes. A last line cut off mid-write (no newline after it and not
 * parseable) is skipped with a warning; a bad line elsewhere is skipped with a warning naming its
 * line, or, in strict mode, fails. Entries that repeat an id are bad lines too.
 */
export function parseSessionFile(bytes: Buffer, options: ParseOptions): ParsedSessionFile {
  const { file, strict } = options;
  const lastNewline = bytes.lastIndexOf(NEWLINE);
  const lines = bytes.toString('utf8').split('\n');
  const last = lines.length - 1;
  const warnings: ReadWarning[] = [];
  let tornBytes = 0;

  const bad = (line: number, field: string, reason: string) => {
    if (strict) throw new SessionFileError({ file, line, field }, reason);
    warnings.push({ line, kind: 'corrupt_line', message: `${file}:${line}, field ${field}: ${reason}; line skipped` });
  };

  const header = parseHeader(lines[0]!, file, last === 0);
  const migrate = migrationFrom(header.version);
  const entries: Entry[] = [];
  const ids = new Set<string>();

  for (let i = 1; i <= last; i++) {
    const text = lines[i]!;
    if (text === '') continue;
    const lineNo = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (i === last) {
        // No newline after it: the writer died mid-line. Everything before it stands.
        tornBytes = bytes.length - (lastNewline + 1);
        warnings.push({ line: lineNo, kind: 'torn_line', message: `${file}:${lineNo}: the last line is incomplete (a write was cut off); skipped` });
      } else {
        bad(lineNo, '(line)', 'not valid JSON');
      }
      continue;
    }
    if (migrate && typeof value === 'object' && value !== null) value = migrate(value as Record<string, unknown>);
    const problem = checkEntryShape(value);
    if (problem) {
      bad(lineNo, problem.field, problem.reason);
      continue;
    }
    const entry = value as Entry;
    if (strict) {
      const parsed = Entry.safeParse(entry);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new SessionFileError({ file, line: lineNo, field: issue.path.join('.') || '(entry)' }, issue.message);
      }
    }
    if (ids.has(entry.id)) {
      bad(lineNo, 'id', `duplicate id "${entry.id}"`);
      continue;
    }
    if (entry.parentId !== null && !ids.has(entry.parentId)) {
      const reason = `parent "${entry.parentId}" is not an earlier entry`;
      if (strict) throw new SessionFileError({ file, line: lineNo, field: 'parentId' }, reason);
      // Kept: its path starts here now. Dropping it would lose the entries after it as well.
      warnings.push({ line: lineNo, kind: 'corrupt_line', message: `${file}:${lineNo}, field parentId: ${reason}; kept as a root` });
    }
    ids.add(entry.id);
    entries.push(entry);
  }
  return {
    header,
    version: header.version,
    entries,
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
