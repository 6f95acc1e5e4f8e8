import type { TurnOutcome, TurnSnapshot } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import type { Agent, AgentEvent, AgentOptions, JournalLine, Tool } from '@tiller/shell';
import type { AgentPath } from '../path-step.js';
import type { BrokenInvariant, UserInvariant } from './invariants.js';
import type { ToolRun } from './world.js';

/** What the agent under test is: `createAgent`'s options (the kit gives the model, session and journal) and the host code beside it. */
export interface AgentUnderTest extends Omit<AgentOptions, 'model' | 'session' | 'journal'> {
  /**
   * Host code that runs beside the agent, as your app does (it subscribes, forwards, logs). It is
   * called for each agent of the run, the one resumed after a crash included. It must not approve
   * or abort on its own: the path does that.
   */
  host?: (agent: Agent) => void;
}

/** What `makeAgent` gets from the run. */
export interface AgentWorld {
  /** Your tools, watched by the run: build the agent (and anything that calls tools) with these. */
  tools<T extends readonly Tool[]>(tools: T): T;
}

export type MakeAgent = (world: AgentWorld) => AgentUnderTest;

export interface RunPathOptions {
  /** Your own invariants over the run, checked beside Tiller's. */
  invariants?: readonly UserInvariant[];
  /** How long the run waits for the agent to reach each step. Default 2 000 ms. */
  stepTimeoutMs?: number;
  /** The tools' time limit in paths where a tool times out. Default 40 ms. */
  toolTimeoutMs?: number;
  /** The approval time limit in paths where an approval times out. Default 40 ms. */
  approvalTimeoutMs?: number;
  /** How long a tool may take to stop once its turn was aborted or closed. Default 20 ms. */
  abortGraceMs?: number;
}

/** Everything a run saw. */
export interface PathRun {
  path: AgentPath;
  /** True when no invariant broke. */
  passed: boolean;
  broken: BrokenInvariant[];
  /** The journal as the last process left it (every segment). */
  journal: JournalLine[];
  /** Every event, of every process of the run. */
  events: AgentEvent[];
  /** Every run of the agent's tools. */
  toolRuns: ToolRun[];
  outcomes: TurnOutcome[];
  /** The session log of the last process. */
  session: SessionLog;
  /** The snapshot the last process ended with. */
  snapshot: TurnSnapshot;
  /** How many processes ran the path (1 + crashes). */
  processes: number;
  /** The state after each input of the journal. */
  states: string[];
  /** The states and transitions of the turn machine the run took. */
  coverage: { states: string[]; transitions: string[] };
  /** The agent's tools, as it was built with them. */
  tools: readonly Tool[];
  /** Every invariant the run was checked for, by name: Tiller's (`INVARIANTS`), then your own. */
  invariants: readonly string[];
  /** A readable account: the path, what broke, and the script to replay it with. */
  report(): string;
}
