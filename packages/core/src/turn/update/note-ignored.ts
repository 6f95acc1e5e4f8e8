import { IGNORED_NOTES_KEPT, type IgnoredNote } from '../context.js';
import type { WorkingContext } from './working-context.js';

export function noteIgnored(work: WorkingContext, note: IgnoredNote): void {
  const { count, recent } = work.ignored;
  work.ignored = { count: count + 1, recent: [...recent, note].slice(-IGNORED_NOTES_KEPT) };
}
