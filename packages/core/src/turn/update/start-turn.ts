import type { Draft } from 'immer';
import type { TurnContext } from '../context.js';
import type { TurnEventOf } from '../events.js';
import { appendNew } from './append-entries.js';

export function startTurn(draft: Draft<TurnContext>, event: TurnEventOf<'turn.start'>): void {
  draft.lastOutcome = null;
  draft.turn = {
    turnId: event.turnId,
    iterations: 0,
    entrySeq: 0,
    effectSeq: 0,
    pending: null,
    overflowRetries: 0,
    batch: null,
    deliveries: [],
  };
  appendNew(draft, event.at, [{ kind: 'message', message: event.message }]);
}
