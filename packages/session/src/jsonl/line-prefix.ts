import { decodeUtf8 } from '../utf8.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const KIND_PREFIX = ascii('{"kind":"');
const ID_PREFIX = ascii(',"id":');
const PARENT_PREFIX = ascii(',"parentId":');
const NULL = ascii('null');

/** Where a line stands in the tree. */
export interface LinePrefix {
  id: string;
  parentId: string | null;
}

/**
 * `id` and `parentId` from the start of the line `bytes[start, end)`, as the current format writes
 * every entry (`{"kind":"…","id":"…","parentId":…`), without parsing the rest: a walk over lines it
 * does not need reads only this, and a line whose end is damaged can still say where it stood.
 */
export function readLinePrefix(bytes: Uint8Array, start: number, end: number): LinePrefix | undefined {
  if (!matches(bytes, start, end, KIND_PREFIX)) return undefined;
  const kindEnd = bytes.indexOf(QUOTE, start + KIND_PREFIX.length);
  if (kindEnd < 0 || kindEnd >= end || !matches(bytes, kindEnd + 1, end, ID_PREFIX)) return undefined;
  const id = readString(bytes, kindEnd + 1 + ID_PREFIX.length, end);
  if (!id || !matches(bytes, id.next, end, PARENT_PREFIX)) return undefined;
  const parentAt = id.next + PARENT_PREFIX.length;
  if (matches(bytes, parentAt, end, NULL)) return { id: id.value, parentId: null };
  const parent = readString(bytes, parentAt, end);
  return parent ? { id: id.value, parentId: parent.value } : undefined;
}

function readString(bytes: Uint8Array, at: number, end: number): { value: string; next: number } | undefined {
  if (bytes[at] !== QUOTE) return undefined;
  let escaped = false;
  for (let i = at + 1; i < end; i++) {
    const byte = bytes[i];
    if (byte === BACKSLASH) {
      escaped = true;
      i++;
    } else if (byte === QUOTE) {
      const value = escaped ? (JSON.parse(decodeUtf8(bytes, at, i + 1)) as string) : decodeUtf8(bytes, at + 1, i);
      return { value, next: i + 1 };
    }
  }
  return undefined;
}

function matches(bytes: Uint8Array, at: number, end: number, literal: Uint8Array): boolean {
  if (at + literal.length > end) return false;
  for (let i = 0; i < literal.length; i++) if (bytes[at + i] !== literal[i]) return false;
  return true;
}
