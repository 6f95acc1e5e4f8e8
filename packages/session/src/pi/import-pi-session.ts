import { entryShapeProblem, FileLists, type Entry } from '@tiller/core';
import { withoutByteOrderMark } from '../byte-order-mark.js';
import { CustomTypes, isReservedCustomType } from '../custom-types.js';
import { z } from 'zod';
import { checkOptions } from '../check-options.js';
import { PiImportError, SessionOptionsError } from '../errors/index.js';
import { ownValue } from '../own-value.js';
import { readWarning, type ReadWarning } from '../read-warning.js';
import {
  isRecord,
  PI_FORMAT_VERSION,
  PI_META_KEY,
  rest,
  TILLER_META_FIELD,
  type PiFileEntry,
  type PiRecord,
  type PiSessionHeader,
  type PiStash,
} from './pi-format.js';
import { piMessageToTiller, userContent } from './pi-messages.js';

/** A Tiller entry as an import made it: pi-only fields ride along in `meta.pi` (a `PiStash`). */
export type ImportedEntry = Entry;

export interface PiImport {
  header: PiSessionHeader;
  /** The format version the file was written in (1 to 3). */
  version: number;
  /** Root first, in file order: every parent comes before its children. */
  entries: ImportedEntry[];
  /** Where pi would continue: the last entry of the file (null for an empty session). */
  leafId: string | null;
  /** Lines pi itself would skip (not JSON); they are reported, not imported. */
  warnings: ReadWarning[];
}

export interface ImportPiOptions {
  /** The file name used in errors and warnings (default `pi session`). */
  source?: string;
}

const ImportPiOptionsSchema = z.strictObject({ source: z.string().optional() });

/** pi entry types that become `custom` entries, with the customType each gets. */
const CUSTOM_TYPE_OF: Record<string, string> = {
  label: CustomTypes.label,
  session_info: CustomTypes.sessionName,
  model_change: CustomTypes.piModelChange,
  thinking_level_change: CustomTypes.piThinkingLevelChange,
};

const BASE_KEYS = ['type', 'id', 'parentId', 'timestamp'];

/**
 * Reads a pi session file (formats 1 to 3) into Tiller entries, keeping pi's ids. Format 1 has no
 * ids: its entries form one chain and get the id `line-<n>` (n: their line in the file), so the
 * same file always imports to the same ids.
 */
export function importPiSession(text: string, options: ImportPiOptions = {}): PiImport {
  const file = checkOptions('importPiSession', ImportPiOptionsSchema, options).source ?? 'pi session';
  if (typeof text !== 'string') throw new SessionOptionsError('importPiSession', 'text', `expected the text of a pi session file, got ${typeof text}`);
  const warnings: ReadWarning[] = [];
  const lines = withoutByteOrderMark(text).split('\n');
  const parsed: { line: number; value: PiRecord }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      const torn = i === lines.length - 1;
      const at = { file, line: i + 1 };
      warnings.push(torn ? readWarning('torn_line', at, 'the last line is incomplete') : readWarning('corrupt_line', { ...at, field: '(line)' }, 'not JSON'));
      continue;
    }
    if (!isRecord(value) || typeof value.type !== 'string') {
      throw new PiImportError({ file, line: i + 1, field: 'type' }, 'expected a JSON object with a string "type"');
    }
    parsed.push({ line: i + 1, value });
  }

  const first = parsed[0];
  if (!first || first.value.type !== 'session' || typeof first.value.id !== 'string') {
    throw new PiImportError({ file, line: first?.line ?? 1, field: 'type' }, 'a pi session starts with a "session" header line that has an id');
  }
  const header = first.value as PiSessionHeader;
  // Shown as text (`tiller show`) and written as a Tiller header's createdAt: an object there threw a bare TypeError.
  if (header.timestamp !== undefined && typeof header.timestamp !== 'string') {
    throw new PiImportError({ file, line: first.line, field: 'timestamp' }, 'expected the time the session was created, as a string');
  }
  const version = header.version ?? 1;
  if (typeof version !== 'number' || version < 1 || version > PI_FORMAT_VERSION) {
    throw new PiImportError(
      { file, line: first.line, field: 'version' },
      `pi session format ${JSON.stringify(version)} is not one this importer reads (1 to ${PI_FORMAT_VERSION})`,
    );
  }

  const entries: ImportedEntry[] = [];
  const ids = new Set<string>();
  // Format 1 refers to entries by their index among the parsed lines (header included).
  const idAtIndex: (string | undefined)[] = [undefined];
  let previousId: string | null = null;
  for (let index = 1; index < parsed.length; index++) {
    const { line, value } = parsed[index]!;
    const { [TILLER_META_FIELD]: hostMeta, ...raw } = value as PiFileEntry;
    const at = (field: string) => ({ file, line, field });
    if (hostMeta !== undefined && !isRecord(hostMeta)) throw new PiImportError(at(TILLER_META_FIELD), 'expected a JSON object');
    let id: string;
    let parentId: string | null;
    if (version === 1) {
      id = `line-${line}`;
      parentId = previousId;
    } else {
      if (typeof raw.id !== 'string' || !raw.id) throw new PiImportError(at('id'), 'missing entry id');
      if (raw.parentId !== null && typeof raw.parentId !== 'string') {
        throw new PiImportError(at('parentId'), 'parentId must be a string or null');
      }
      id = raw.id;
      parentId = raw.parentId;
    }
    if (ids.has(id)) throw new PiImportError(at('id'), `duplicate entry id "${id}"`);
    if (parentId !== null && !ids.has(parentId)) {
      throw new PiImportError(at('parentId'), `parent "${parentId}" does not come before this entry`);
    }
    if (typeof raw.timestamp !== 'string') throw new PiImportError(at('timestamp'), 'missing timestamp');

    if (raw.type === 'message' && !isRecord(raw.message)) throw new PiImportError(at('message'), 'a message entry needs a message object');
    const entry = toTillerEntry(raw as PiFileEntry, { id, parentId, at: raw.timestamp }, version, idAtIndex);
    if (hostMeta) entry.meta = { ...hostMeta, ...entry.meta };
    // The check a session file's lines get, so a field is named the same way (`message.content[0].type`).
    const problem = entryShapeProblem(entry);
    if (problem) throw new PiImportError(at(problem.field === '(the entry)' ? 'type' : problem.field), `cannot import this ${raw.type} entry: ${problem.reason}`);
    entries.push(entry);
    ids.add(id);
    idAtIndex.push(id);
    previousId = id;
  }

  return { header, version, entries, leafId: entries.at(-1)?.id ?? null, warnings };
}

interface Base {
  id: string;
  parentId: string | null;
  at: string;
}

function toTillerEntry(raw: PiFileEntry, base: Base, version: number, idAtIndex: readonly (string | undefined)[]): ImportedEntry {
  switch (raw.type) {
    case 'message': {
      const message = raw.message as PiRecord;
      const migrated = version < 3 && message.role === 'hookMessage' ? { ...message, role: 'custom' } : message;
      const imported = piMessageToTiller(migrated);
      const entryRest = rest(raw, [...BASE_KEYS, 'message']);
      if (imported.kind === 'foreign') {
        const custom: ImportedEntry = { ...base, kind: 'custom', customType: CustomTypes.piMessage, data: migrated };
        if (imported.modelMessage) custom.message = imported.modelMessage;
        return withStash(custom, entryRest ? { entry: entryRest } : undefined);
      }
      const stash = imported.stash ?? {};
      if (entryRest) stash.entry = entryRest;
      return withStash({ ...base, kind: 'message', message: imported.message }, stash);
    }
    case 'compaction': {
      const entry: ImportedEntry = {
        ...base,
        kind: 'compaction',
        summary: raw.summary as string,
        firstKeptEntryId: version === 1 ? firstKeptOfV1(raw, idAtIndex) : (raw.firstKeptEntryId as string),
        tokensBefore: raw.tokensBefore as number,
      };
      return withDetails(entry, raw, ['summary', 'firstKeptEntryId', 'firstKeptEntryIndex', 'tokensBefore', 'details']);
    }
    case 'branch_summary': {
      const entry: ImportedEntry = { ...base, kind: 'branch_summary', fromId: raw.fromId as string, summary: raw.summary as string };
      return withDetails(entry, raw, ['fromId', 'summary', 'details']);
    }
    case 'custom': {
      const customType = raw.customType;
      const entryRest = rest(raw, [...BASE_KEYS, 'customType', 'data']);
      if (typeof customType !== 'string' || !customType || isReservedCustomType(customType) || entryRest) {
        return { ...base, kind: 'custom', customType: CustomTypes.piCustom, data: rest(raw, BASE_KEYS) };
      }
      const entry: ImportedEntry = { ...base, kind: 'custom', customType };
      if ('data' in raw) entry.data = raw.data;
      return entry;
    }
    case 'custom_message': {
      const entry: ImportedEntry = {
        ...base,
        kind: 'custom',
        customType: CustomTypes.piCustomMessage,
        // All of pi's fields, content included: a string content stays a string on export.
        data: rest(raw, BASE_KEYS) ?? {},
        message: { role: 'user', content: userContent(raw.content) },
      };
      return entry;
    }
    default: {
      const customType = ownValue(CUSTOM_TYPE_OF, raw.type);
      if (customType) return { ...base, kind: 'custom', customType, data: rest(raw, BASE_KEYS) ?? {} };
      return { ...base, kind: 'custom', customType: CustomTypes.piEntry, data: rest(raw, ['id', 'parentId', 'timestamp']) };
    }
  }
}

/**
 * Format 1 names the first kept entry by its index among the file's entries (header included).
 * Like pi's own migration, only an entry before the compaction can be found; otherwise nothing is
 * kept, which an id that matches no entry says just as well.
 */
function firstKeptOfV1(raw: PiFileEntry, idAtIndex: readonly (string | undefined)[]): string {
  const index = raw.firstKeptEntryIndex;
  if (typeof raw.firstKeptEntryId === 'string') return raw.firstKeptEntryId;
  return (typeof index === 'number' ? idAtIndex[index] : undefined) ?? `missing-${JSON.stringify(index) ?? 'undefined'}`;
}

/**
 * pi's `details` become Tiller's file lists when they have that shape; anything else pi wrote
 * (other details, `fromHook`) is stashed. Tiller-only fields an export put under `details.tiller`
 * come back as the entry's own fields.
 */
/** Fields of Tiller's compaction and branch summary entries that pi's entries have no place for. */
export const TILLER_ONLY_FIELDS = ['tokensAfter', 'compactedEntryIds', 'cleared', 'stripThinking', 'provenance'] as const;

function withDetails(entry: ImportedEntry, raw: PiFileEntry, known: readonly string[]): ImportedEntry {
  const stash: PiStash = {};
  const entryRest = rest(raw, [...BASE_KEYS, ...known]);
  if (entryRest) stash.entry = entryRest;
  const details = raw.details;
  if (details !== undefined) {
    const lists = isRecord(details) ? FileLists.safeParse({ readFiles: details.readFiles, modifiedFiles: details.modifiedFiles }) : undefined;
    const detailsRest = isRecord(details) ? rest(details, ['readFiles', 'modifiedFiles', 'tiller']) : undefined;
    if (lists?.success) (entry as { details?: FileLists }).details = lists.data;
    const tiller = isRecord(details) ? details.tiller : undefined;
    if (isRecord(tiller)) {
      // Only fields an export puts there; validation of the entry checks their values.
      for (const key of TILLER_ONLY_FIELDS) if (tiller[key] !== undefined) (entry as PiRecord)[key] = tiller[key];
    }
    if (!lists?.success || detailsRest) {
      // Keep pi's details whole when Tiller cannot hold all of it.
      stash.entry = { ...stash.entry, details };
    }
  }
  return withStash(entry, stash);
}

function withStash(entry: ImportedEntry, stash: PiStash | undefined): ImportedEntry {
  if (stash && Object.keys(stash).length > 0) entry.meta = { [PI_META_KEY]: stash };
  return entry;
}
