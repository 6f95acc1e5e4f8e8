import type { TurnContext } from '../context.js';
import type { EmitEffect, PersistEffect, ProgressEvent } from '../effects.js';
import { workOn, type WorkingContext } from './working-context.js';

type Announcement = { type: 'persist'; params: Omit<PersistEffect, 'type'> } | { type: 'emit'; params: Omit<EmitEffect, 'type'> };

/** One step's change to the context, and the effects that announce it, as machine actions. */
export interface AppliedUpdate {
  context: TurnContext;
  /** A `persist` of the entries the update appended, then their `message.added`, then its progress. */
  announcements: Announcement[];
}

/**
 * Runs an update on a working copy of `base` and lists what the shell must hear about it: the
 * appended entries, in order, before anything that depends on them having been written.
 */
export function applyUpdate(base: TurnContext, update: (work: WorkingContext, emit: (event: ProgressEvent) => void) => void): AppliedUpdate {
  const work = workOn(base);
  const progress: ProgressEvent[] = [];
  update(work, (event) => progress.push(event));
  work.persisted = work.entries.length;
  const announcements: Announcement[] = [];
  if (work.entries.length > base.persisted) {
    const entries = work.entries.slice(base.persisted);
    announcements.push({ type: 'persist', params: { entries } });
    for (const entry of entries) {
      if (entry.kind === 'message') announcements.push({ type: 'emit', params: { event: { type: 'message.added', entryId: entry.id, message: entry.message } } });
    }
  }
  for (const event of progress) announcements.push({ type: 'emit', params: { event } });
  return { context: work, announcements };
}
