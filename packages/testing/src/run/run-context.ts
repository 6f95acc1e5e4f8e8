import type { Agent } from '@tiller/shell';
import type { JournalMirror } from './journal-mirror.js';
import type { World } from './world.js';

/** The turn did not go where the path says: the run stops there and reports it. */
export class Deviation extends Error {}

/** What the steps of a run act on: the agent of the current process and the world around it. */
export interface RunContext {
  /** The agent of the process that runs now (a new one after each crash). */
  readonly agent: Agent;
  readonly world: World;
  readonly mirror: JournalMirror;
  /** Reads the journal on and returns how many inputs the turn has had. */
  inputs(): number;
  /** Waits, yielding to the agent, until `condition` holds; a Deviation naming `what` after the step timeout. */
  waitUntil(condition: () => boolean, what: string): Promise<void>;
}

/** `waitUntil` for a context: spins on `setImmediate` at first, then on 1 ms timers, until the deadline. */
export function waiter(agent: () => Agent, timeoutMs: number, stateOf: (agent: Agent) => string) {
  return async (condition: () => boolean, what: string): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (let spins = 0; !condition(); spins++) {
      if (Date.now() > deadline) throw new Deviation(`waited ${timeoutMs} ms (runPath's stepTimeoutMs) for ${what}; the turn is in ${stateOf(agent())}`);
      await (spins < 200 ? new Promise((r) => setImmediate(r)) : new Promise((r) => setTimeout(r, 1)));
    }
  };
}
