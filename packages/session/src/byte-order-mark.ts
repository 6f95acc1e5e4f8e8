/**
 * The text without the UTF-8 byte-order mark some editors put at the start of a file they save.
 * Node's decoding keeps the mark, and `JSON.parse` refuses it, so without this the first line of
 * such a file reads as damaged.
 */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
