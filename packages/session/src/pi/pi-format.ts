/**
 * The shapes of pi's JSONL session files (pi-coding-agent formats 1 to 3), as loose as pi itself
 * reads them: every line is a JSON object with a `type`; the first is the `session` header.
 */
export const PI_FORMAT_VERSION = 3;

export interface PiSessionHeader {
  type: 'session';
  /** Missing in format 1. */
  version?: number;
  id: string;
  timestamp: string;
  cwd?: string;
  parentSession?: string;
  [key: string]: unknown;
}

/** One non-header line. Format 1 lines have no `id` or `parentId`. */
export interface PiFileEntry {
  type: string;
  id?: string;
  parentId?: string | null;
  timestamp?: string;
  [key: string]: unknown;
}

export type PiRecord = Record<string, unknown>;

/**
 * What pi keeps about an entry that Tiller has no field for, carried on the Tiller entry under
 * `meta.pi` so that an export restores it. Only entries imported from pi carry it; being inside
 * the schema's `meta`, it survives a zod re-parse and every store.
 */
export interface PiStash {
  /** pi-only fields of the entry itself (for example `fromHook`). */
  entry?: PiRecord;
  /** pi-only fields of the message (`timestamp`, `api`, `provider`, `model`, `responseId`, ...). */
  message?: PiRecord;
  /** pi-only fields of each content part, by position; null where a part has none. */
  parts?: (PiRecord | null)[];
  /** The `usage` object exactly as pi wrote it, when it does not fit Tiller's `Usage`. */
  usage?: unknown;
}

/** The key of an entry's `meta` that holds the pi import's stash; reserved for it. */
export const PI_META_KEY = 'pi';

/**
 * The pi line field that carries an entry's other `meta` (a host's own annotations): pi ignores
 * fields it does not know, and an import reads it back into `meta`.
 */
export const TILLER_META_FIELD = 'tillerMeta';

/** The stash an import left on an entry, if any. */
export function piStashOf(entry: { meta?: PiRecord }): PiStash | undefined {
  const stash = entry.meta?.[PI_META_KEY];
  return isRecord(stash) ? (stash as PiStash) : undefined;
}

/** An entry's `meta` without the pi stash; undefined when nothing else is there. */
export function hostMetaOf(entry: { meta?: PiRecord }): PiRecord | undefined {
  return entry.meta ? rest(entry.meta, [PI_META_KEY]) : undefined;
}

export function isRecord(value: unknown): value is PiRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields of `value` other than `keys`; undefined when there are none. */
export function rest(value: PiRecord, keys: readonly string[]): PiRecord | undefined {
  let out: PiRecord | undefined;
  for (const key of Object.keys(value)) {
    if (keys.includes(key)) continue;
    (out ??= {})[key] = value[key];
  }
  return out;
}
