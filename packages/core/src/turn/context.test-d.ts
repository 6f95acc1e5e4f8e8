import { expectTypeOf, it } from 'vitest';
import type { ActiveTurn, QueuedMessage, TurnContext } from './context.js';
import type { TurnSnapshot } from './snapshot.js';

declare const snapshot: TurnSnapshot;

it("a snapshot's context is read-only: it is shared with the snapshots before and after it", () => {
  expectTypeOf(snapshot.context).toEqualTypeOf<TurnContext>();
  expectTypeOf<TurnContext['queue']>().toEqualTypeOf<readonly QueuedMessage[]>();
  expectTypeOf<NonNullable<ActiveTurn['batch']>['calls']>().toExtend<readonly unknown[]>();
  // @ts-expect-error a host cannot queue into a snapshot it holds
  snapshot.context.queue.push({} as QueuedMessage);
  // @ts-expect-error nor move the turn's counters
  snapshot.context.turn!.entrySeq += 1;
  // @ts-expect-error nor record a decision in place
  snapshot.context.turn!.batch!.decisions.push({ toolCallId: 'x', decision: 'allow' });
  // @ts-expect-error nor replace a field of the context
  snapshot.context.persisted = 0;
});
