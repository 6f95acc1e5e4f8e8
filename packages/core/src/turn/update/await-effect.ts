import type { Draft } from 'immer';
import type { BoundaryReason, TurnContext } from '../context.js';
import { nextEffectId } from './ids.js';

/** The turn parks at a steering boundary and asks the shell whether to compact. */
export function awaitCompaction(draft: Draft<TurnContext>, reason: BoundaryReason, force = false): void {
  const turn = draft.turn!;
  turn.pending = { effect: 'maybe_compact', id: nextEffectId(turn, 'compaction'), reason, force };
}

/** The next model call; after `maxIterations` tool rounds it is the final one, without tools. */
export function awaitCall(draft: Draft<TurnContext>): void {
  const turn = draft.turn!;
  turn.pending = { effect: 'call_llm', id: nextEffectId(turn, 'call'), final: turn.iterations >= draft.maxIterations };
}

/** The tool batch of the reply just recorded; returns its id. */
export function awaitTools(draft: Draft<TurnContext>): string {
  const turn = draft.turn!;
  const id = nextEffectId(turn, 'batch');
  turn.pending = { effect: 'run_tools', id };
  return id;
}
