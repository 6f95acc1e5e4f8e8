import { Entry, type BranchSummaryEntry, type CompactionEntry } from '@tiller/core';
import { z } from 'zod';
import { checkOptions } from '../check-options.js';
import { SessionOptionsError } from '../errors/index.js';
import { CustomTypes } from '../custom-types.js';
import { hostMetaOf, isRecord, PI_FORMAT_VERSION, piStashOf, TILLER_META_FIELD, type PiRecord, type PiSessionHeader } from './pi-format.js';
import { tillerMessageToPi } from './pi-messages.js';
import { TILLER_ONLY_FIELDS } from './import-pi-session.js';

export interface ExportPiOptions {
  /**
   * The header of the pi file. An imported session passes the header its import returned; without
   * one, the header takes its id and time from the first entry and an empty cwd.
   */
  header?: PiSessionHeader;
}

/** pi's entry type for each reserved customType that stands for one. */
const PI_TYPE_OF: Record<string, string> = {
  [CustomTypes.label]: 'label',
  [CustomTypes.sessionName]: 'session_info',
  [CustomTypes.piModelChange]: 'model_change',
  [CustomTypes.piThinkingLevelChange]: 'thinking_level_change',
  [CustomTypes.piCustomMessage]: 'custom_message',
};

/**
 * Writes entries as a pi session file in pi's current format (3), one JSON object per line after
 * the header. Entries imported from pi come back as pi wrote them; Tiller's own entries get pi's
 * nearest shape (see docs/session.md).
 */
export function exportPiSession(entries: readonly Entry[], options: ExportPiOptions = {}): string {
  checkOptions('exportPiSession', ExportPiOptionsSchema, options);
  if (!Array.isArray(entries)) throw new SessionOptionsError('exportPiSession', 'entries', 'expected an array of entries');
  for (let i = 0; i < entries.length; i++) {
    const parsed = Entry.safeParse(entries[i]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new SessionOptionsError('exportPiSession', `entries[${i}]${issue.path.length ? `.${issue.path.join('.')}` : ''}`, issue.message);
    }
  }
  const first = entries[0];
  const header: PiSessionHeader = options.header
    ? { ...options.header, version: PI_FORMAT_VERSION }
    : { type: 'session', version: PI_FORMAT_VERSION, id: first?.id ?? 'session', timestamp: first?.at ?? new Date(0).toISOString(), cwd: '' };
  const lines = [JSON.stringify(header)];
  for (const entry of entries) {
    const line = toPiEntry(entry);
    // meta.pi has been spent restoring pi's fields; the rest is the host's and travels beside them.
    const hostMeta = hostMetaOf(entry);
    lines.push(JSON.stringify(hostMeta ? { ...line, [TILLER_META_FIELD]: hostMeta } : line));
  }
  return `${lines.join('\n')}\n`;
}

const ExportPiOptionsSchema = z.strictObject({
  header: z
    .looseObject({
      type: z.literal('session'),
      version: z.number().optional(),
      id: z.string().min(1, 'expected a non-empty string'),
      timestamp: z.string(),
      cwd: z.string().optional(),
      parentSession: z.string().optional(),
    })
    .optional(),
});

function toPiEntry(entry: Entry): PiRecord {
  const base = { id: entry.id, parentId: entry.parentId, timestamp: entry.at };
  const stash = piStashOf(entry);
  switch (entry.kind) {
    case 'message':
      return { type: 'message', ...base, ...stash?.entry, message: tillerMessageToPi(entry.message, stash, entry.at) };
    case 'compaction':
      return {
        type: 'compaction',
        ...base,
        summary: entry.summary,
        firstKeptEntryId: entry.firstKeptEntryId,
        tokensBefore: entry.tokensBefore,
        ...detailsOf(entry),
        ...stash?.entry,
      };
    case 'branch_summary':
      return {
        type: 'branch_summary',
        ...base,
        fromId: entry.fromId,
        summary: entry.summary,
        ...detailsOf(entry),
        ...stash?.entry,
      };
    case 'custom':
      return customToPi(entry, base);
    default: {
      const unknownEntry: never = entry;
      throw new TypeError(`unknown entry kind: ${JSON.stringify(unknownEntry)}`);
    }
  }
}

/**
 * pi's `details` for a summary entry: Tiller's file lists, plus the fields pi has no place for
 * (tokensAfter, cleared, provenance, ...) under `details.tiller`, which an import reads back.
 */
function detailsOf(entry: CompactionEntry | BranchSummaryEntry): PiRecord {
  let tiller: PiRecord | undefined;
  for (const key of TILLER_ONLY_FIELDS) {
    const value = (entry as PiRecord)[key];
    if (value !== undefined) (tiller ??= {})[key] = value;
  }
  if (!entry.details && !tiller) return {};
  return { details: { ...entry.details, ...(tiller ? { tiller } : {}) } };
}

function customToPi(entry: Extract<Entry, { kind: 'custom' }>, base: PiRecord): PiRecord {
  const data = isRecord(entry.data) ? entry.data : {};
  const stashed = piStashOf(entry)?.entry;
  switch (entry.customType) {
    case CustomTypes.piMessage:
      return { type: 'message', ...base, ...stashed, message: entry.data };
    case CustomTypes.piEntry:
      return { ...data, ...base, type: data.type };
    case CustomTypes.piCustom:
      return { type: 'custom', ...base, ...data };
    default: {
      const piType = PI_TYPE_OF[entry.customType];
      if (piType) return { type: piType, ...base, ...data };
      // A Tiller custom entry: a note the model sees becomes pi's custom_message, other data pi's custom entry.
      if (entry.message) {
        const content = entry.message.role === 'user' ? entry.message.content : JSON.stringify(entry.message.content);
        return { type: 'custom_message', ...base, customType: entry.customType, content, display: true, details: entry.data };
      }
      return { type: 'custom', ...base, customType: entry.customType, ...('data' in entry ? { data: entry.data } : {}) };
    }
  }
}
