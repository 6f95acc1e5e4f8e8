import type { TurnContext } from './context.js';
import type { BlockingEffect } from './effects.js';
import type { TurnSnapshot } from './snapshot.js';

/**
 * The effect a blocking state issues on entry: the one the turn waits on, with the messages or
 * calls the context holds added back. Only a state whose reducer set that effect can be entered
 * (the machine's transitions guarantee it), so a mismatch is a bug in the machine and throws.
 */
export function blockingEffect<T extends BlockingEffect['type']>(context: TurnContext, type: T): Extract<BlockingEffect, { type: T }> {
  const turn = context.turn;
  const pending = turn?.pending;
  if (!turn || !pending || pending.type !== type) throw new Error(`the turn entered the state of ${type} while waiting on ${pending?.type ?? 'nothing'}`);
  return withPayload(context, pending) as Extract<BlockingEffect, { type: T }>;
}

/**
 * The effect the turn waits on, rebuilt from a snapshot as its state issued it, or undefined when
 * it waits on nothing. A host or a test that takes up a turn from a stored snapshot answers this
 * effect by its `id`: the effects of the step that issued it are gone by then.
 */
export function pendingEffect(snapshot: TurnSnapshot): BlockingEffect | undefined {
  const pending = snapshot.context.turn?.pending;
  return pending ? withPayload(snapshot.context, pending) : undefined;
}

function withPayload(context: TurnContext, pending: NonNullable<NonNullable<TurnContext['turn']>['pending']>): BlockingEffect {
  const calls = context.turn?.batch?.calls ?? [];
  switch (pending.type) {
    case 'maybe_compact':
      return { ...pending };
    case 'call_llm':
      return { ...pending, context: context.view };
    case 'run_tools':
      return { ...pending, calls, decisions: context.turn?.batch?.decisions ?? [] };
    case 'request_approval': {
      const asked = new Set(pending.toolCallIds);
      return { type: pending.type, id: pending.id, calls: calls.filter((c) => asked.has(c.id)) };
    }
    default: {
      const unknown: never = pending;
      throw new TypeError(`unknown pending effect ${JSON.stringify(unknown)}`);
    }
  }
}
