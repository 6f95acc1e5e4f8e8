import { messageShapeProblem } from '@tiller/core';

type ShapeProblem = { field: string; reason: string } | undefined;

/**
 * A cheap structural check of a parsed line: the fields every reader of an entry relies on, by
 * kind, and for a message each part of its content. Full schema validation (zod) runs in strict
 * mode; this runs on every line of every open, so it reads only those fields, no deeper. Returns
 * the first bad field and why, or undefined.
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
 * A message's role and its content, part by part (`messageShapeProblem` from `@tiller/core`): every
 * reader of the context (the token estimate, the providers' converters) relies on each part's type
 * and its text, so a part without them is a corrupt line, not a crash when the session is handed
 * to an agent.
 */
function checkMessage(message: unknown): ShapeProblem {
  const problem = messageShapeProblem(message);
  if (!problem) return undefined;
  return { field: problem.field === '(the message)' ? 'message' : `message.${problem.field}`, reason: problem.reason };
}
