/** The mark some editors write before the first line; the session and journal readers read past it. */
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * The first line of a session or journal file, parsed, read past a UTF-8 byte-order mark so
 * that the CLI's guess at a file's kind agrees with the readers that load it. Throws a
 * SyntaxError when the line is not JSON.
 */
export function firstLineJson(text: string): unknown {
  const start = text.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK.length : 0;
  const end = text.indexOf('\n', start);
  return JSON.parse(text.slice(start, end < 0 ? undefined : end));
}
