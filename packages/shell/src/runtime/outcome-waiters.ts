import type { TurnOutcome } from '@tiller/core';

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

/** Who waits for a turn to end: `prompt()` for its own turn, `idle()` for whichever ends next. */
export interface OutcomeWaiters {
  forTurn(turnId: string): Promise<TurnOutcome>;
  forNextEnd(): Promise<TurnOutcome>;
  /** A turn ended: its prompt and every idle waiter hear how. */
  settle(outcome: TurnOutcome): void;
  /** The turn was refused before it started: its prompt gets the error. */
  refuse(turnId: string, error: Error): void;
  /** The agent stopped: everyone waiting gets the error. */
  fail(error: Error): void;
}

export function createOutcomeWaiters(): OutcomeWaiters {
  const turns = new Map<string, Waiter<TurnOutcome>>();
  let idle: Array<Waiter<TurnOutcome>> = [];
  return {
    forTurn: (turnId) => new Promise((resolve, reject) => turns.set(turnId, { resolve, reject })),
    forNextEnd: () => new Promise((resolve, reject) => idle.push({ resolve, reject })),
    settle(outcome) {
      turns.get(outcome.turnId)?.resolve(outcome);
      turns.delete(outcome.turnId);
      const waiting = idle;
      idle = [];
      for (const waiter of waiting) waiter.resolve(outcome);
    },
    refuse(turnId, error) {
      turns.get(turnId)?.reject(error);
      turns.delete(turnId);
    },
    fail(error) {
      for (const waiter of turns.values()) waiter.reject(error);
      turns.clear();
      const waiting = idle;
      idle = [];
      for (const waiter of waiting) waiter.reject(error);
    },
  };
}
