import type { Draft } from 'immer';
import type { UserMessage } from '../../schema/message.js';
import type { BoundaryReason, Delivery, QueuedKind, QueuedMessage, TurnContext } from '../context.js';
import { appendNew } from './append-entries.js';
import { turnPhase } from '../turn-phase.js';

export function queueMessage(draft: Draft<TurnContext>, kind: QueuedKind, message: UserMessage, at: string): void {
  draft.queue.push({ kind, message, receivedAt: at, receivedIn: turnPhase(draft as TurnContext) });
}

/**
 * Appends the queued messages a boundary takes (read from `base`, the context before this step,
 * so no draft is made just to read them): every steer, and the follow-ups too when the
 * turn continues because of them. Each gets a delivery record.
 */
export function deliverQueued(draft: Draft<TurnContext>, base: TurnContext, at: string, boundary: BoundaryReason): Delivery[] {
  const takes = (q: QueuedMessage) => q.kind === 'steer' || boundary === 'follow_up';
  const taken = base.queue.filter(takes);
  if (taken.length === 0) return [];
  draft.queue = base.queue.filter((q) => !takes(q));
  const entries = appendNew(
    draft,
    at,
    taken.map((q) => ({ kind: 'message', message: q.message })),
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
