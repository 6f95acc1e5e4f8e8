import { type Entry, entryShapeProblem } from '@tiller/core';
import { keptPartProblem } from './kept-part-problem.js';

/**
 * What is wrong with the entries a compactor appended, or null. Each must be an entry the session
 * log takes, a child of the one before it (the first a child of the path's leaf), with an id not
 * yet used: the turn refuses a broken chain (the whole turn failed) and the log a repeated id (the
 * agent stopped for good), so a compactor's slip is caught here, where it costs only the
 * compaction. The ids are looked up in the path only when something was appended. A compaction
 * entry must also keep what it says it keeps (`keptPartProblem`).
 */
export function appendedEntriesProblem(before: readonly Entry[], appended: readonly unknown[]): string | null {
  let parentId = before.at(-1)?.id ?? null;
  const seen = new Map<string, number>();
  for (const [i, entry] of appended.entries()) {
    const shape = entryShapeProblem(entry);
    const named = typeof (entry as { id?: unknown } | null)?.id === 'string' ? `appended[${i}] (id "${(entry as Entry).id}")` : `appended[${i}]`;
    if (shape) return `${named} is not an entry: ${shape.field}: ${shape.reason}`;
    const { id, parentId: parent } = entry as Entry;
    if (parent !== parentId) {
      return `${named} has parent ${JSON.stringify(parent)}, expected ${JSON.stringify(parentId)}: a compactor only appends to the end of the path`;
    }
    const earlier = seen.get(id);
    if (earlier !== undefined) return `appended[${i}] reuses the id "${id}" of appended[${earlier}]`;
    seen.set(id, i);
    parentId = id;
  }
  if (seen.size === 0) return null;
  for (const entry of before) if (seen.has(entry.id)) return `appended[${seen.get(entry.id)}] reuses the id "${entry.id}" of an entry in the path`;
  const path = [...before, ...(appended as Entry[])];
  for (const [i, entry] of (appended as Entry[]).entries()) {
    if (entry.kind !== 'compaction') continue;
    const problem = keptPartProblem(path, before.length + i, `appended[${i}] (id "${entry.id}")`);
    if (problem) return problem;
  }
  return null;
}
