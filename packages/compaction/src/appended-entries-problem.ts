import { type Entry, entryShapeProblem } from '@tiller/core';
import { keptPartProblem } from './kept-part-problem.js';

/** Whatever can say whether an id is taken: the session log (`has`, on its index), a `Set` of ids. */
export interface TakenIds {
  has(id: string): boolean;
}

/**
 * What is wrong with the entries a compactor appended, or null. Each must be an entry the session
 * log takes, a child of the one before it (the first a child of the path's leaf), with an id not
 * yet used: the turn refuses a broken chain (the whole turn failed) and the log a repeated id (the
 * agent stopped for good), so a compactor's slip is caught here, where it costs only the
 * compaction. An id is asked of `log` when given (every branch of the session, in what its index
 * costs), else looked up in the path, read once and only when something was appended. A
 * compaction entry must also keep what it says it keeps (`keptPartProblem`).
 */
export function appendedEntriesProblem(before: readonly Entry[], appended: readonly unknown[], log?: TakenIds): string | null {
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
  const reused = log ? reusedInLog(before, seen, log) : reusedInPath(before, seen);
  if (reused) return reused;
  // The path and what was appended, read as one without copying the path.
  const entryAt = (index: number): Entry => (index < before.length ? before[index]! : (appended[index - before.length] as Entry));
  for (const [i, entry] of (appended as Entry[]).entries()) {
    if (entry.kind !== 'compaction') continue;
    const problem = keptPartProblem(entryAt, before.length + i, `appended[${i}] (id "${entry.id}")`);
    if (problem) return problem;
  }
  return null;
}

function reusedInPath(path: readonly Entry[], ids: ReadonlyMap<string, number>): string | null {
  for (const entry of path) if (ids.has(entry.id)) return `appended[${ids.get(entry.id)}] reuses the id "${entry.id}" of an entry in the path`;
  return null;
}

function reusedInLog(path: readonly Entry[], ids: ReadonlyMap<string, number>, log: TakenIds): string | null {
  for (const [id, i] of ids) {
    if (!log.has(id)) continue;
    // Only a refusal reads the path, to say where the id stands.
    const where = path.some((entry) => entry.id === id) ? 'in the path' : 'on another branch of the session log';
    return `appended[${i}] reuses the id "${id}" of an entry ${where}`;
  }
  return null;
}
