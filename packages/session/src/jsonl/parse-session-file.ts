import type { Entry } from '@tiller/core';
import { withoutByteOrderMark } from '../byte-order-mark.js';
import { decodeUtf8 } from '../utf8.js';
import { SessionFileError } from '../errors/index.js';
import { readWarning, type ReadWarning } from '../read-warning.js';
import { checkEntryShape } from './check-entry-shape.js';
import { checkLine, type LineCheck } from './check-line.js';
import { readLinePrefix, type LinePrefix } from './line-prefix.js';
import { HEADER_TYPE, migrationFrom, SESSION_FORMAT_VERSION, type SessionFileHeader } from './format.js';

export interface ParseOptions {
  /** The file name for errors and warnings. */
  file: string;
  /** Fail on the first bad line instead of skipping it. */
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
 * Reads a session file's bytes. A last line cut off mid-write (no newline after it and not
 * parseable) is skipped with a warning; a bad line elsewhere is skipped with a warning naming its
 * line and field, or, in strict mode, fails. An entry whose parent was on a skipped line whose id
 * and parent can still be read is joined to the nearest kept entry on its path, so one damaged
 * line costs one entry, not the conversation before it. An entry whose parent is on no earlier
 * line is kept as a root (its `parentId` read as null), so a path never leads forward in the file
 * and never loops. When an id repeats, the last line with it wins: that is the line a reader going
 * backwards from the end (`resumeContext`) meets first, so both reads agree.
 *
 * Each line is decoded from the bytes on its own, never the file as one string: a single
 * non-ASCII character would make that string two bytes a character (twice the file's size held
 * beside the bytes), and `JSON.parse` reads short one-byte strings faster.
 */
export function parseSessionFile(bytes: Uint8Array, options: ParseOptions): ParsedSessionFile {
  const { file, strict } = options;
  const headerEnd = bytes.indexOf(NEWLINE);
  const header = parseHeader(decodeUtf8(bytes, 0, headerEnd < 0 ? bytes.length : headerEnd), file, headerEnd < 0);
  const body: BodyReader = { bytes, start: headerEnd < 0 ? bytes.length : headerEnd + 1, file, strict, migrate: migrationFrom(header.version) };

  // One pass in the usual case; a repeated id (which only damage makes) reads the body again.
  const tree = new TreeBuilder(file, strict);
  let repeated = false;
  const tornBytes = readEntryLines(body, tree.warnings, {
    entry: (entry, line) => {
      if (!tree.byId.has(entry.id)) tree.add(entry, line);
      else if (strict) throw new SessionFileError({ file, line, field: 'id' }, `duplicate id "${entry.id}"`);
      else repeated = true;
    },
    skipped: (where, line) => tree.skip(where, line),
  });
  const built = repeated ? lastLineWins(body) : tree;
  return {
    header,
    version: header.version,
    entries: built.entries,
    byId: built.byId,
    warnings: built.warnings,
    tornBytes,
    endsWithNewline: tornBytes > 0 || bytes.length === 0 || bytes[bytes.length - 1] === NEWLINE,
  };
}

interface BodyReader {
  bytes: Uint8Array;
  /** Where the first entry line starts. */
  start: number;
  file: string;
  strict: boolean;
  migrate: ((line: Record<string, unknown>) => Record<string, unknown>) | undefined;
}

/** What `readEntryLines` hands on, line by line (1-based, the header is line 1). */
interface LineVisitor {
  /** A line that is a well-formed entry. */
  entry(entry: Entry, line: number): void;
  /** A line that was skipped as corrupt, but whose id and parent can still be read. */
  skipped(where: LinePrefix, line: number): void;
}

/**
 * Hands every line to `visit`; warns about (or, strict, fails on) the lines that are not entries.
 * Returns the length of a torn last line (0 when there is none).
 */
function readEntryLines(body: BodyReader, warnings: ReadWarning[], visit: LineVisitor): number {
  const { bytes, file, strict, migrate } = body;
  const bad = (line: number, field: string, reason: string, where: LinePrefix | undefined) => {
    if (strict) throw new SessionFileError({ file, line, field }, reason);
    warnings.push(readWarning('corrupt_line', { file, line, field }, reason));
    if (where) visit.skipped(where, line);
  };
  let tornBytes = 0;
  for (let start = body.start, line = 2; start < bytes.length; line++) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline < 0 ? bytes.length : newline;
    const lineStart = start;
    start = end + 1;
    if (end === lineStart) continue;
    let value: unknown;
    try {
      value = JSON.parse(decodeUtf8(bytes, lineStart, end));
    } catch {
      if (newline < 0) {
        // No newline after it: the writer died mid-line. Everything before it stands.
        tornBytes = end - lineStart;
        warnings.push(readWarning('torn_line', { file, line }, 'the last line is incomplete (a write was cut off)'));
      } else {
        bad(line, '(line)', 'not valid JSON', readLinePrefix(bytes, lineStart, end));
      }
      continue;
    }
    if (migrate && typeof value === 'object' && value !== null && !Array.isArray(value)) value = migrate(value as Record<string, unknown>);
    const checked = strict ? strictCheck(value) : checkLine(value);
    if (checked.kind === 'corrupt') {
      bad(line, checked.field, checked.reason, idAndParent(value));
      continue;
    }
    for (const d of checked.dropped) warnings.push(readWarning('dropped_field', { file, line, field: d.field }, d.reason, `${d.dropped} dropped, entry kept`));
    visit.entry(checked.entry, line);
  }
  return tornBytes;
}

/** The id and parent of a parsed line the schema refused, when those two fields are sound. */
function idAndParent(value: unknown): LinePrefix | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, parentId } = value as { id?: unknown; parentId?: unknown };
  if (typeof id !== 'string' || id === '' || (parentId !== null && typeof parentId !== 'string')) return undefined;
  return { id, parentId };
}

/** Strict mode keeps nothing the schema refuses: the first bad field fails the read. */
function strictCheck(value: unknown): LineCheck {
  const problem = checkEntryShape(value);
  return problem ? { kind: 'corrupt', ...problem } : { kind: 'entry', entry: value as Entry, dropped: [] };
}

/** Entries in file order, indexed by id, each parent an earlier entry. */
class TreeBuilder {
  readonly entries: Entry[] = [];
  readonly byId = new Map<string, Entry>();
  readonly warnings: ReadWarning[] = [];
  // Most entries follow the one before them: their parent needs no lookup.
  #previousId: string | null = null;
  /** Skipped lines by id: where each stood, and the kept entry its children are joined to. */
  readonly #skipped = new Map<string, { line: number; joinTo: string | null }>();

  constructor(
    readonly file: string,
    readonly strict: boolean,
  ) {}

  add(entry: Entry, line: number): void {
    const { parentId } = entry;
    const skipped = parentId === null ? undefined : this.#skipped.get(parentId);
    if (skipped && !this.byId.has(parentId!)) {
      const done = skipped.joinTo === null ? 'kept as a root' : `joined to "${skipped.joinTo}", the nearest kept entry on its path`;
      const reason = `parent "${parentId}" was on line ${skipped.line}, which was skipped`;
      this.warnings.push(readWarning('skipped_parent', { file: this.file, line, field: 'parentId' }, reason, done));
      entry = { ...entry, parentId: skipped.joinTo };
    } else if (parentId !== null && parentId !== this.#previousId && !this.byId.has(parentId)) {
      const reason = `parent "${parentId}" is not an earlier entry`;
      if (this.strict) throw new SessionFileError({ file: this.file, line, field: 'parentId' }, reason);
      // Kept: its path starts here now. Dropping it would lose the entries after it as well.
      this.warnings.push(readWarning('missing_parent', { file: this.file, line, field: 'parentId' }, reason));
      entry = { ...entry, parentId: null };
    }
    this.byId.set(entry.id, entry);
    this.entries.push(entry);
    this.#previousId = entry.id;
  }

  /** A skipped line: its children will be joined to its nearest kept ancestor (or be roots). */
  skip(where: LinePrefix, line: number): void {
    // An id an earlier line already holds keeps that line's meaning.
    if (this.byId.has(where.id) || this.#skipped.has(where.id)) return;
    const { parentId } = where;
    const joinTo = parentId === null || this.byId.has(parentId) ? parentId : (this.#skipped.get(parentId)?.joinTo ?? null);
    this.#skipped.set(where.id, { line, joinTo });
  }
}

/** The tree when ids repeat: of the lines that share an id, the last one is the entry. */
function lastLineWins(body: BodyReader): TreeBuilder {
  const tree = new TreeBuilder(body.file, body.strict);
  const lines: { entry: Entry; line: number }[] = [];
  const skips: { where: LinePrefix; line: number }[] = [];
  readEntryLines(body, tree.warnings, { entry: (entry, line) => lines.push({ entry, line }), skipped: (where, line) => skips.push({ where, line }) });
  const last = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) last.set(lines[i]!.entry.id, i);
  for (let i = 0, s = 0; i < lines.length; i++) {
    const { entry, line } = lines[i]!;
    // The skipped lines before this one, in file order, as the first pass met them.
    for (; s < skips.length && skips[s]!.line < line; s++) tree.skip(skips[s]!.where, skips[s]!.line);
    const winner = last.get(entry.id)!;
    if (winner === i) tree.add(entry, line);
    else tree.warnings.push(readWarning('repeated_id', { file: body.file, line, field: 'id' }, `id "${entry.id}" is repeated on line ${lines[winner]!.line}`));
  }
  tree.warnings.sort((a, b) => a.line - b.line);
  return tree;
}

export function parseHeader(line: string, file: string, onlyLine: boolean): SessionFileHeader {
  const at = (field: string) => ({ file, line: 1, field });
  const text = withoutByteOrderMark(line);
  // An empty file (`touch chat.jsonl`) is no torn header: a created file is renamed into place with its header.
  if (onlyLine && text.trim() === '') {
    throw new SessionFileError({ file, line: 0 }, 'the file is empty, with no session header; remove it, or give a path that does not exist, to start a new session there');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const reason = onlyLine ? 'the header line is incomplete' : 'the first line is not a session header (not JSON)';
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
  // Every reader that shows the header puts it in text: an object there (`{"toString": 1}`) threw a
  // bare TypeError in `tiller show`. A header without it (files of early drafts) still reads.
  if (header.createdAt !== undefined && typeof header.createdAt !== 'string') {
    throw new SessionFileError(at('createdAt'), 'expected the time the session was created, as a string');
  }
  return header as SessionFileHeader;
}
