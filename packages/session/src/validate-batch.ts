import type { Entry } from '@tiller/core';
import { checkEntryShape } from './jsonl/check-entry-shape.js';
import { AppendError } from './errors/index.js';

/**
 * Checks a batch against the ids already in the log: every entry valid, every id new (in the log
 * and in the batch), every parent either in the log or earlier in the batch. Throws on the first
 * offending entry, naming it; the caller writes nothing then. An entry is checked as a line of a
 * session file is (`checkEntryShape`), so an append and a read name a bad field the same way.
 */
export function validateBatch(batch: readonly Entry[], has: (id: string) => boolean): void {
  const inBatch = new Set<string>();
  for (let i = 0; i < batch.length; i++) {
    const entry = batch[i]!;
    const problem = checkEntryShape(entry);
    if (problem) {
      const name = typeof entry?.id === 'string' && entry.id ? entry.id : `#${i}`;
      const field = problem.field === '(line)' ? '(entry)' : problem.field;
      throw new AppendError('invalid_entry', name, `entry ${name} (batch position ${i}), field ${field}: ${problem.reason}`);
    }
    if (has(entry.id) || inBatch.has(entry.id)) {
      throw new AppendError('duplicate_id', entry.id, `entry ${entry.id}: an entry with this id is already in the session`);
    }
    if (entry.parentId !== null && !has(entry.parentId) && !inBatch.has(entry.parentId)) {
      throw new AppendError('missing_parent', entry.id, `entry ${entry.id}: its parent ${entry.parentId} is not in the session`);
    }
    inBatch.add(entry.id);
  }
}
