import type { Entry } from '../../schema/entry.js';
import type { TurnContext } from '../context.js';
import { lastEntryId } from './append-entries.js';

/**
 * What is wrong with the entries a compactor appended, or null. They must continue the path:
 * the first is a child of the current last entry, each next one a child of the one before.
 */
export function appendedProblem(context: TurnContext, appended: readonly Entry[]): string | null {
  let parentId = lastEntryId(context);
  const ids = new Set<string>();
  for (const [i, entry] of appended.entries()) {
    if (entry.parentId !== parentId) {
      return `compaction.done appended[${i}] (id "${entry.id}") has parent ${JSON.stringify(entry.parentId)}, expected ${JSON.stringify(parentId)}: a compactor may only append to the path`;
    }
    if (ids.has(entry.id) || entry.id === lastEntryId(context)) {
      return `compaction.done appended[${i}] reuses the id "${entry.id}"`;
    }
    ids.add(entry.id);
    parentId = entry.id;
  }
  return null;
}
