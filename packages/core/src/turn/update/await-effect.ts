import type { BoundaryReason } from '../context.js';
import { nextEffectId } from './ids.js';
import type { WorkingContext } from './working-context.js';

/**
 * The turn parks at a steering boundary and asks the shell whether to compact. Mid-round when the
 * context ends with tool results: the model is inside a tool loop.
 */
export function awaitCompaction(work: WorkingContext, reason: BoundaryReason, force = false): void {
  const turn = work.turn!;
  const midRound = work.view.last()?.role === 'toolResult';
  turn.pending = { type: 'maybe_compact', id: nextEffectId(turn, 'compaction'), midRound, reason, force };
}

/** The next model call; after `maxIterations` tool rounds it is the final one, without tools. */
export function awaitCall(work: WorkingContext): void {
  const turn = work.turn!;
  turn.pending = { type: 'call_llm', id: nextEffectId(turn, 'call'), final: turn.iterations >= work.maxIterations };
}

/** The open batch runs (again, once decisions were made); returns the effect's id. */
export function awaitTools(work: WorkingContext): string {
  const turn = work.turn!;
  const id = nextEffectId(turn, 'batch');
  turn.pending = { type: 'run_tools', id };
  return id;
}

/** The host decides the calls whose policy asked. */
export function awaitApproval(work: WorkingContext, toolCallIds: readonly string[]): string {
  const turn = work.turn!;
  const id = nextEffectId(turn, 'approval');
  turn.pending = { type: 'request_approval', id, toolCallIds };
  return id;
}
