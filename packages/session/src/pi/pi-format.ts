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
 * What pi keeps about an entry that Tiller has no field for, carried on the Tiller entry as its
 * `pi` property so that an export restores it. Only entries imported from pi carry it.
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
