import type { UserMessage } from '../../schema/message.js';
import type { BoundaryReason, Delivery, QueuedKind, QueuedMessage } from '../context.js';
import { appendMessages } from './append-entries.js';
import { turnPhase } from '../turn-phase.js';
import type { WorkingContext } from './working-context.js';

export function queueMessage(work: WorkingContext, kind: QueuedKind, message: UserMessage, at: string): void {
  work.queue = [...work.queue, { kind, message, receivedAt: at, receivedIn: turnPhase(work) }];
}

/** Whether a boundary takes a queued message: a steer always, a follow-up when the turn goes on for it. */
function takenAt(boundary: BoundaryReason, message: QueuedMessage): boolean {
  return message.kind === 'steer' || boundary === 'follow_up';
}

/**
 * Appends the queued messages a boundary takes, in the order they came: every steer, and the
 * follow-ups too when the turn continues because of them. Each gets a delivery record.
 */
export function deliverQueued(work: WorkingContext, at: string, boundary: BoundaryReason): Delivery[] {
  const queue = work.queue;
  if (queue.length === 0) return [];
  const taken = queue.filter((q) => takenAt(boundary, q));
  if (taken.length === 0) return [];
  work.queue = queue.filter((q) => !takenAt(boundary, q));
  const entries = appendMessages(work, at, taken.map((q) => q.message), taken.map((q) => q.kind));
  const deliveries = taken.map((q, i) => ({
    kind: q.kind,
    entryId: entries[i]!.id,
    receivedAt: q.receivedAt,
    receivedIn: q.receivedIn,
    deliveredAt: at,
    boundary,
  }));
  const turn = work.turn!;
  turn.deliveries = [...turn.deliveries, ...deliveries];
  return deliveries;
}
