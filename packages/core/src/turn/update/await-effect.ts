import type { BoundaryReason } from '../context.js';
import { nextEffectId } from './ids.js';
import type { WorkingContext } from './working-context.js';

/** The turn parks at a steering boundary and asks the shell whether to compact. */
export function awaitCompaction(work: WorkingContext, reason: BoundaryReason, force = false): void {
  const turn = work.turn!;
  turn.pending = { effect: 'maybe_compact', id: nextEffectId(turn, 'compaction'), reason, force };
}

/** The next model call; after `maxIterations` tool rounds it is the final one, without tools. */
export function awaitCall(work: WorkingContext): void {
  const turn = work.turn!;
  turn.pending = { effect: 'call_llm', id: nextEffectId(turn, 'call'), final: turn.iterations >= work.maxIterations };
}

/** The tool batch of the reply just recorded; returns its id. */
export function awaitTools(work: WorkingContext): string {
  const turn = work.turn!;
  const id = nextEffectId(turn, 'batch');
  turn.pending = { effect: 'run_tools', id };
  return id;
}
