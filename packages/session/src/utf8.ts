// `ignoreBOM` keeps a byte-order mark as a character, as Node's `Buffer#toString` does: the header's
// reader strips it on purpose, and a mark before an entry line stays the damage it is.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The text of `bytes[start, end)`. Plain `Uint8Array` work, not `Buffer`, so the reader of session
 * files runs in a browser too (the inspector reads sessions there); a `Buffer` is a `Uint8Array`.
 */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  return decoder.decode(bytes.subarray(start, end));
}
