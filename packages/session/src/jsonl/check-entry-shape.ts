import { entryShapeProblem } from '@tiller/core';

type ShapeProblem = { field: string; reason: string } | undefined;

/**
 * A parsed line as the schema `Entry` takes it (`entryShapeProblem` from `@tiller/core`, which
 * agrees with `Entry.safeParse` by plain property reads): every reader of an entry relies on its
 * fields (a compaction's `firstKeptEntryId` decides the context, its `tokensBefore` is added up,
 * a message goes to the provider), so an entry the schema refuses is a corrupt line here, not a
 * failure later when the session is handed to an agent. Returns the first bad field and why, or
 * undefined; a line that is no object at all is `(line)`.
 */
export function checkEntryShape(value: unknown): ShapeProblem {
  const problem = entryShapeProblem(value);
  if (!problem) return undefined;
  return problem.field === '(the entry)' ? { field: '(line)', reason: 'not a JSON object' } : problem;
}
