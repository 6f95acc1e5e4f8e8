import { withoutByteOrderMark } from './byte-order-mark.js';
import { HEADER_TYPE } from './jsonl/format.js';
import { parseSessionFile, type ParsedSessionFile } from './jsonl/parse-session-file.js';

/** A session file's content as `readSessionText` reads it. */
export type SessionFileContents = Pick<ParsedSessionFile, 'header' | 'version' | 'entries' | 'byId' | 'warnings'>;

/**
 * Reads the text of a session file the way `JsonlStore.open` reads the file: the same checks,
 * migration and repairs, with the same warnings, so a viewer shows the tree the agent sees. A
 * damaged line is skipped with a warning naming `file`, its line and field; a header it cannot
 * read throws a `SessionFileError`.
 */
export function readSessionText(text: string, file: string): SessionFileContents {
  const { header, version, entries, byId, warnings } = parseSessionFile(new TextEncoder().encode(text), { file, strict: false });
  return { header, version, entries, byId, warnings };
}

/** True when the text starts with a session header (and not, say, a journal's). */
export function isSessionText(text: string): boolean {
  const unmarked = withoutByteOrderMark(text);
  const newline = unmarked.indexOf('\n');
  try {
    const first: unknown = JSON.parse(newline < 0 ? unmarked : unmarked.slice(0, newline));
    return typeof first === 'object' && first !== null && (first as { type?: unknown }).type === HEADER_TYPE;
  } catch {
    return false;
  }
}
