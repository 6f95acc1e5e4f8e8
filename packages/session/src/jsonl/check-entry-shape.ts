import { messageShapeProblem } from '@tiller/core';

type ShapeProblem = { field: string; reason: string } | undefined;

/**
 * A cheap structural check of a parsed line: the fields every reader of an entry relies on, by
 * kind, and a message in full (what the schema `Message` takes, no more). Full schema validation
 * of the entry (zod) runs in strict mode; this runs on every line of every open, so for the
 * entry's own fields it reads only those, no deeper. Returns the first bad field and why, or
 * undefined.
 */
export function checkEntryShape(value: unknown): ShapeProblem {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { field: '(line)', reason: 'not a JSON object' };
  const e = value as Record<string, unknown>;
  if (typeof e.id !== 'string' || e.id === '') return { field: 'id', reason: 'expected a non-empty string' };
  if (e.parentId !== null && (typeof e.parentId !== 'string' || e.parentId === '')) {
    return { field: 'parentId', reason: 'expected a non-empty string or null' };
  }
  if (typeof e.at !== 'string') return { field: 'at', reason: 'expected a string' };
  switch (e.kind) {
    case 'message':
      return checkMessage(e.message);
    case 'compaction':
      if (typeof e.summary !== 'string') return { field: 'summary', reason: 'expected a string' };
      if (typeof e.firstKeptEntryId !== 'string') return { field: 'firstKeptEntryId', reason: 'expected a string' };
      return undefined;
    case 'branch_summary':
      if (typeof e.summary !== 'string') return { field: 'summary', reason: 'expected a string' };
      if (typeof e.fromId !== 'string') return { field: 'fromId', reason: 'expected a string' };
      return undefined;
    case 'custom':
      if (typeof e.customType !== 'string' || e.customType === '') return { field: 'customType', reason: 'expected a non-empty string' };
      return e.message === undefined ? undefined : checkMessage(e.message);
    default:
      return { field: 'kind', reason: 'expected message, compaction, branch_summary or custom' };
  }
}

/**
 * A message as the schema says (`messageShapeProblem` from `@tiller/core`, which agrees with
 * `Message`): every reader of the context relies on it (a provider refuses a tool call with an
 * empty id, the token estimate adds up `usage`), so a message the schema refuses is a corrupt
 * line here, not a failure later when the session is handed to an agent.
 */
function checkMessage(message: unknown): ShapeProblem {
  const problem = messageShapeProblem(message);
  if (!problem) return undefined;
  return { field: problem.field === '(the message)' ? 'message' : `message.${problem.field}`, reason: problem.reason };
}
