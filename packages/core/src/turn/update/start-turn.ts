import type { TurnEventOf } from '../events.js';
import { appendMessages } from './append-entries.js';
import type { WorkingContext } from './working-context.js';

export function startTurn(work: WorkingContext, event: TurnEventOf<'turn.start'>): void {
  work.lastOutcome = null;
  work.turn = {
    turnId: event.turnId,
    iterations: 0,
    entrySeq: 0,
    effectSeq: 0,
    pending: null,
    overflowRetries: 0,
    overflowCompaction: null,
    batch: null,
    deliveries: [],
  };
  appendMessages(work, event.at, [event.message], ['prompt']);
}
