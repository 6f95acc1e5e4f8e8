/** One entry of a pi session file in format 3 (any type), as pi's migration leaves it. */
export interface PiLine {
  type: string;
  id: string;
  parentId: string | null;
  [key: string]: unknown;
}

/** Fields of pi's entries that name another entry; a copy must point into the same copy. */
const REFERENCE_FIELDS = ['firstKeptEntryId', 'fromId', 'targetId'] as const;

export class ScaleSessionError extends Error {
  override readonly name = 'ScaleSessionError';
}

/**
 * A session of exactly `size` entries made by repeating `source` (a format 3 path, root first)
 * with fresh ids `<prefix><n>`. Each copy hangs off the last entry of the copy before it, so the
 * result is still one tree whose last entry is the leaf, and references inside a copy (parents,
 * a compaction's first kept entry, a label's target) point into that same copy.
 */
export function scaleSession(source: readonly PiLine[], size: number, prefix = 's'): PiLine[] {
  if (!Number.isInteger(size) || size < 0) throw new ScaleSessionError(`size must be a non-negative integer, got ${size}`);
  if (source.length === 0 && size > 0) throw new ScaleSessionError('cannot scale an empty session');
  const out: PiLine[] = [];
  let ids = new Map<string, string>();
  let previousLast: string | null = null;
  for (let n = 0; n < size; n++) {
    const index = n % source.length;
    if (index === 0 && n > 0) {
      previousLast = out[n - 1]!.id;
      ids = new Map();
    }
    const entry = source[index]!;
    const id = `${prefix}${n}`;
    ids.set(entry.id, id);
    const copy: PiLine = { ...entry, id, parentId: entry.parentId === null ? previousLast : mapped(ids, entry.parentId, entry.id) };
    for (const field of REFERENCE_FIELDS) {
      const target = entry[field];
      // A reference to an entry later in the copy (or outside it) keeps its id: it matches no entry, as in the source.
      if (typeof target === 'string') copy[field] = ids.get(target) ?? target;
    }
    out.push(copy);
  }
  return out;
}

function mapped(ids: ReadonlyMap<string, string>, parentId: string, of: string): string {
  const id = ids.get(parentId);
  if (id === undefined) throw new ScaleSessionError(`entry ${of}: parent ${parentId} does not come before it`);
  return id;
}
