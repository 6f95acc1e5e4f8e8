const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const KIND_PREFIX = Buffer.from('{"kind":"');
const ID_PREFIX = Buffer.from(',"id":');
const PARENT_PREFIX = Buffer.from(',"parentId":');
const NULL = Buffer.from('null');

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
export function readLinePrefix(bytes: Buffer, start: number, end: number): LinePrefix | undefined {
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

function readString(bytes: Buffer, at: number, end: number): { value: string; next: number } | undefined {
  if (bytes[at] !== QUOTE) return undefined;
  let escaped = false;
  for (let i = at + 1; i < end; i++) {
    const byte = bytes[i];
    if (byte === BACKSLASH) {
      escaped = true;
      i++;
    } else if (byte === QUOTE) {
      const value = escaped ? (JSON.parse(bytes.toString('utf8', at, i + 1)) as string) : bytes.toString('utf8', at + 1, i);
      return { value, next: i + 1 };
    }
  }
  return undefined;
}

function matches(bytes: Buffer, at: number, end: number, literal: Buffer): boolean {
  return at + literal.length <= end && bytes.compare(literal, 0, literal.length, at, at + literal.length) === 0;
}
