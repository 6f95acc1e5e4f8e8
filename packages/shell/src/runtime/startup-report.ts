import type { SessionLog } from '@tiller/session';
import type { AgentEvent } from '../agent/agent-event.js';
import { now } from '../clock.js';

/**
 * What an agent has to tell before its first turn goes on: what opening the log skipped or
 * changed (its read warnings), and what failed while the agent was made, before anyone could
 * subscribe (an inspector that failed on the actor's report). Told once, in that order; a failure
 * after that is told at once.
 */
export class StartupReport {
  readonly #session: SessionLog;
  readonly #publish: (event: AgentEvent) => void;
  #held: AgentEvent[] | null = [];

  constructor(session: SessionLog, publish: (event: AgentEvent) => void) {
    this.#session = session;
    this.#publish = publish;
  }

  /** A failure the host should hear of: held until the report is told, told at once after. */
  failed(event: AgentEvent): void {
    if (this.#held) this.#held.push(event);
    else this.#publish(event);
  }

  /** Tells the report, the first time only. */
  tellOnce(): void {
    const held = this.#held;
    if (!held) return;
    this.#held = null;
    // A log of the host's own making may keep none.
    for (const warning of this.#session.warnings ?? []) this.#publish({ type: 'session.warning', warning, at: now() });
    for (const event of held) this.#publish(event);
  }
}
