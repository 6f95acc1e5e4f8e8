import type { ActiveTurn, TurnContext } from '../context.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * The context one step is building. Only its top level and its turn are its own, so those fields
 * can be reassigned; everything below them is still shared with the snapshot the step started
 * from and stays read-only in the types, so changing it in place (a `push` into the queue, say)
 * does not compile. A step replaces what it changes: that is what keeps old snapshots intact.
 */
export type WorkingContext = Writable<Omit<TurnContext, 'turn'>> & { turn: WorkingTurn | null };
export type WorkingTurn = Writable<ActiveTurn>;

/**
 * Two shallow copies per step, whatever the history length: the log and the view are
 * append-only lists that share their storage (see `AppendOnlyList`).
 */
export function workOn(context: TurnContext): WorkingContext {
  return { ...context, turn: context.turn && { ...context.turn } };
}
