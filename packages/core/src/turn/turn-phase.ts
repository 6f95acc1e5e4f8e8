import type { TurnContext } from './context.js';

export type TurnPhase = 'idle' | 'steering' | 'calling' | 'tools';

/** Which top-level state the context belongs to, read from the effect the turn waits on. */
export function turnPhase(context: TurnContext): TurnPhase {
  const pending = context.turn?.pending;
  if (!pending) return 'idle';
  switch (pending.type) {
    case 'maybe_compact':
      return 'steering';
    case 'call_llm':
      return 'calling';
    case 'run_tools':
    case 'request_approval':
      return 'tools';
    default: {
      const unknown: never = pending;
      throw new TypeError(`unknown pending effect ${JSON.stringify(unknown)}`);
    }
  }
}
