import type { EntryKind } from './entry.js';
import { messageShapeProblem } from './message-shape.js';
import {
  fieldAt,
  isAmount,
  isObject,
  nonEmptyString,
  optionalBoolean,
  optionalString,
  recordProblem,
  string,
  stringArray,
  usageProblem,
  type Fields,
  type Problem,
} from './shape-reads.js';

/** The first field of an entry that is not what the schema says, and why; `field` is relative to the entry (`message.content[2].text`, `details.readFiles[0]`). */
export interface EntryShapeProblem {
  field: string;
  reason: string;
}

/**
 * The zod schema `Entry` checked by plain property reads: it returns undefined exactly when
 * `Entry.safeParse(entry)` succeeds (keys the schema does not name are fine: zod strips them), and
 * otherwise the first bad field in the schema's order, and why. The kind comes first, as zod's
 * discriminated union reads it before anything else; then the fields every entry has, then the
 * kind's own. The session reader runs it on every line of a file it opens, where zod's parse
 * would cost more than reading the line. `entry-shape.test.ts` holds the two to agreement, both
 * ways; a change to the schema needs the same change here.
 */
export function entryShapeProblem(entry: unknown): EntryShapeProblem | undefined {
  if (!isObject(entry)) return { field: '(the entry)', reason: 'expected an object' };
  const kind = entry.kind;
  if (!isEntryKind(kind)) return { field: 'kind', reason: 'expected message, compaction, branch_summary or custom' };
  const problem = baseProblem(entry);
  if (problem) return problem;
  switch (kind) {
    case 'message':
      return (
        messageProblem(entry.message) ??
        (entry.origin === undefined || isUserOrigin(entry.origin) ? undefined : { field: 'origin', reason: 'expected prompt, steer or follow_up when present' })
      );
    case 'compaction':
      return compactionProblem(entry);
    case 'branch_summary':
      return nonEmptyString(entry, 'fromId', '') ?? string(entry, 'summary', '') ?? optional(entry, 'details', fileListsProblem);
    case 'custom':
      // `data` is anything the host keeps; the schema does not look inside.
      return nonEmptyString(entry, 'customType', '') ?? (entry.message === undefined ? undefined : messageProblem(entry.message));
    default: {
      const unknownKind: never = kind;
      return { field: 'kind', reason: `unknown kind ${String(unknownKind)}` };
    }
  }
}

function baseProblem(entry: Fields): Problem {
  const parentId = entry.parentId;
  return (
    nonEmptyString(entry, 'id', '') ??
    (parentId === null || (typeof parentId === 'string' && parentId !== '') ? undefined : { field: 'parentId', reason: 'expected a non-empty string or null' }) ??
    nonEmptyString(entry, 'at', '') ??
    (entry.meta === undefined ? undefined : recordProblem(entry.meta, 'meta'))
  );
}

function compactionProblem(entry: Fields): Problem {
  return (
    string(entry, 'summary', '') ??
    nonEmptyString(entry, 'firstKeptEntryId', '') ??
    (isAmount(entry.tokensBefore) ? undefined : { field: 'tokensBefore', reason: 'expected a number of tokens (finite, 0 or more)' }) ??
    (entry.tokensAfter === undefined || isAmount(entry.tokensAfter) ? undefined : { field: 'tokensAfter', reason: 'expected a number of tokens (finite, 0 or more) when present' }) ??
    optionalStringArray(entry.compactedEntryIds, 'compactedEntryIds') ??
    optional(entry, 'cleared', clearedProblem) ??
    optionalBoolean(entry, 'stripThinking', '') ??
    optional(entry, 'details', fileListsProblem) ??
    optional(entry, 'provenance', provenanceProblem)
  );
}

/** An optional object field: absent is fine, anything but an object is refused as such, an object is checked by `check`. */
function optional(o: Fields, key: string, check: (value: Fields, field: string) => Problem): Problem {
  const value = o[key];
  if (value === undefined) return undefined;
  if (!isObject(value)) return { field: key, reason: 'expected an object when present' };
  return check(value, key);
}

function optionalStringArray(value: unknown, field: string): Problem {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return { field, reason: 'expected an array of strings when present' };
  return stringArray(value, field);
}

function clearedProblem(c: Fields, field: string): Problem {
  return stringArray(c.entryIds, `${field}.entryIds`) ?? string(c, 'placeholder', field);
}

/** The schema `FileLists`. */
function fileListsProblem(d: Fields, field: string): Problem {
  return stringArray(d.readFiles, `${field}.readFiles`) ?? stringArray(d.modifiedFiles, `${field}.modifiedFiles`);
}

/** The schema `CompactionProvenance`. */
function provenanceProblem(p: Fields, field: string): Problem {
  return (
    nonEmptyString(p, 'strategy', field) ??
    optionalString(p, 'summarizerModel', field) ??
    (p.summarizerUsage === undefined ? undefined : usageProblem(p.summarizerUsage, fieldAt(field, 'summarizerUsage'))) ??
    optionalBoolean(p, 'midRound', field)
  );
}

/** A message field of an entry, named from the entry (`message.content[1].id`). */
function messageProblem(message: unknown): Problem {
  const problem = messageShapeProblem(message);
  if (!problem) return undefined;
  return { field: problem.field === '(the message)' ? 'message' : `message.${problem.field}`, reason: problem.reason };
}

function isEntryKind(value: unknown): value is EntryKind {
  return value === 'message' || value === 'compaction' || value === 'branch_summary' || value === 'custom';
}

function isUserOrigin(value: unknown): boolean {
  return value === 'prompt' || value === 'steer' || value === 'follow_up';
}
