import type { Draft } from 'immer';
import type { UserMessage } from '../../schema/message.js';
import type { BoundaryReason, Delivery, QueuedKind, TurnContext } from '../context.js';
import { appendNew } from './append-entries.js';
import { plain } from './plain.js';
import { turnPhase } from '../turn-phase.js';

export function queueMessage(draft: Draft<TurnContext>, kind: QueuedKind, message: UserMessage, at: string): void {
  draft.queue.push({ kind, message, receivedAt: at, receivedIn: turnPhase(draft as TurnContext) });
}

/**
 * Appends the queued messages a boundary takes: every steer, and the follow-ups too when the
 * turn continues because of them. Each gets a delivery record.
 */
export function deliverQueued(draft: Draft<TurnContext>, at: string, boundary: BoundaryReason): Delivery[] {
  const takesFollowUps = boundary === 'follow_up';
  const taken = draft.queue.filter((q) => q.kind === 'steer' || takesFollowUps);
  if (taken.length === 0) return [];
  draft.queue = draft.queue.filter((q) => !(q.kind === 'steer' || takesFollowUps));
  const entries = appendNew(
    draft,
    at,
    taken.map((q) => ({ kind: 'message', message: plain(q.message) })),
  );
  const deliveries = taken.map((q, i) => ({
    kind: q.kind,
    entryId: entries[i]!.id,
    receivedAt: q.receivedAt,
    receivedIn: q.receivedIn,
    deliveredAt: at,
    boundary,
  }));
  draft.turn!.deliveries.push(...deliveries);
  return deliveries;
}
