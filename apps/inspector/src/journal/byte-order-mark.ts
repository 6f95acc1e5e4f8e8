/**
 * The text without the UTF-8 byte-order mark some editors put at the start of a file they save.
 * Decoding keeps the mark and `JSON.parse` refuses it, so without this a file's first line (its
 * header, which says what the file is) reads as damaged. The shell and the session store read
 * past it the same way.
 */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
