import type { TurnOutcome } from '@tiller/core';

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

/** Who waits for a turn to end: `prompt()` for its own turn, `idle()` for whichever ends next. */
export interface OutcomeWaiters {
  forTurn(turnId: string): Promise<TurnOutcome>;
  forNextEnd(): Promise<TurnOutcome | null>;
  /** A turn ended: its prompt and every idle waiter hear how. */
  settle(outcome: TurnOutcome): void;
  /** The turn was refused before it started: its prompt gets the error. */
  refuse(turnId: string, error: Error): void;
  /** No turn runs after all (a start refused or not taken): `idle` hears the last outcome there is. */
  noTurn(last: TurnOutcome | null): void;
  /** The agent stopped: everyone waiting gets the error. */
  fail(error: Error): void;
}

export function createOutcomeWaiters(): OutcomeWaiters {
  return new TurnWaiters();
}

/** A class, so the waiters of an agent are one small object, their methods on the prototype. */
class TurnWaiters implements OutcomeWaiters {
  readonly #turns = new Map<string, Waiter<TurnOutcome>>();
  #idle: Array<Waiter<TurnOutcome | null>> = [];

  forTurn(turnId: string): Promise<TurnOutcome> {
    return new Promise((resolve, reject) => this.#turns.set(turnId, { resolve, reject }));
  }

  forNextEnd(): Promise<TurnOutcome | null> {
    return new Promise((resolve, reject) => this.#idle.push({ resolve, reject }));
  }

  settle(outcome: TurnOutcome): void {
    this.#turns.get(outcome.turnId)?.resolve(outcome);
    this.#turns.delete(outcome.turnId);
    for (const waiter of this.#takeIdle()) waiter.resolve(outcome);
  }

  refuse(turnId: string, error: Error): void {
    this.#turns.get(turnId)?.reject(error);
    this.#turns.delete(turnId);
  }

  noTurn(last: TurnOutcome | null): void {
    for (const waiter of this.#takeIdle()) waiter.resolve(last);
  }

  fail(error: Error): void {
    for (const waiter of this.#turns.values()) waiter.reject(error);
    this.#turns.clear();
    for (const waiter of this.#takeIdle()) waiter.reject(error);
  }

  /** Every idle waiter, the list emptied first: one that waits again while hearing waits for the next end. */
  #takeIdle(): Array<Waiter<TurnOutcome | null>> {
    const waiting = this.#idle;
    this.#idle = [];
    return waiting;
  }
}
