import type { ToolCallPart } from '../../schema/message.js';
import type { LlmFailure } from '../events.js';
import type { TurnOutcome } from '../outcome.js';
import { closeOpenCalls } from './close-open-calls.js';
import type { WorkingContext } from './working-context.js';

/** How a turn ends, before the core adds the turn's id and iteration count. */
export type Ending =
  | { status: 'completed'; stopReason: Extract<TurnOutcome, { status: 'completed' }>['stopReason'] }
  | { status: 'max_iterations' }
  | { status: 'aborted'; reason: string }
  | { status: 'failed'; reason: string; error?: LlmFailure };

function openCallNote(ending: Ending): string {
  switch (ending.status) {
    case 'completed':
      return 'The tool was not run: the turn ended first.';
    case 'max_iterations':
      return 'The tool was not run: the turn reached its limit of tool rounds.';
    case 'aborted':
      return `The tool did not finish: the turn was aborted (${ending.reason}).`;
    case 'failed':
      return `The tool did not finish: the turn failed (${ending.reason}).`;
    default: {
      const unknown: never = ending;
      throw new TypeError(`unknown ending ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * Ends the running turn: the open calls (read by the caller from the context before the step, or from
 * the reply that ends the turn) get results, the outcome is recorded, the turn is cleared.
 */
export function endTurn(work: WorkingContext, ending: Ending, at: string, openCalls: readonly ToolCallPart[]): TurnOutcome | undefined {
  const turn = work.turn;
  if (!turn) return undefined;
  closeOpenCalls(work, at, openCallNote(ending), openCalls);
  const outcome = { ...ending, turnId: turn.turnId, iterations: turn.iterations } as TurnOutcome;
  work.lastOutcome = outcome;
  work.turn = null;
  return outcome;
}
