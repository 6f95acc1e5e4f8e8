/** The mark some editors write before the first line; the session and journal readers read past it. */
const BYTE_ORDER_MARK = '\uFEFF';

/**
 * The first line of a session or journal file as the object a header is, read past a UTF-8
 * byte-order mark so that the CLI's guess at a file's kind agrees with the readers that load it.
 * JSON that is no object (`null`, a number, a list) gives an empty object: a header with no
 * fields, which every caller refuses as no header. Throws a SyntaxError when the line is not JSON.
 */
export function firstLineHeader(text: string): Record<string, unknown> {
  const start = text.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK.length : 0;
  const end = text.indexOf('\n', start);
  const value: unknown = JSON.parse(text.slice(start, end < 0 ? undefined : end));
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
