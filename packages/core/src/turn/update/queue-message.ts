import type { UserMessage } from '../../schema/message.js';
import type { BoundaryReason, Delivery, QueuedKind, QueuedMessage, TurnContext } from '../context.js';
import { appendMessages } from './append-entries.js';
import { turnPhase } from '../turn-phase.js';
import type { WorkingContext } from './working-context.js';

export function queueMessage(work: WorkingContext, kind: QueuedKind, message: UserMessage, at: string): void {
  work.queue = [...work.queue, { kind, message, receivedAt: at, receivedIn: turnPhase(work) }];
}

/**
 * Appends the queued messages a boundary takes (read from `base`, the context before this step,
 * so no work is made just to read them): every steer, and the follow-ups too when the
 * turn continues because of them. Each gets a delivery record.
 */
export function deliverQueued(work: WorkingContext, base: TurnContext, at: string, boundary: BoundaryReason): Delivery[] {
  const takes = (q: QueuedMessage) => q.kind === 'steer' || boundary === 'follow_up';
  const taken = base.queue.filter(takes);
  if (taken.length === 0) return [];
  work.queue = base.queue.filter((q) => !takes(q));
  const entries = appendMessages(work, at, taken.map((q) => q.message));
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
