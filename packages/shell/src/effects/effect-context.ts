import type { TillerModel, ToolOutcome, ToolSpec, TurnEvent, TurnOutcome } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import type { AgentEvent } from '../agent/agent-event.js';
import type { ResolvedAgentOptions } from '../agent/agent-options.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { Approvals } from '../runtime/approvals.js';
import type { ContextMeter } from '../runtime/context-meter.js';
import type { PartialReply } from '../runtime/partial-reply.js';
import type { PolicyGuard } from '../runtime/policy-guard.js';
import type { Tool } from '../tools/define-tool.js';

/**
 * What a blocking effect's work comes to: the input that answers it and, for work that lent
 * something out, what to do once the runtime applied the answer or dropped it as stale.
 */
export interface EffectAnswer {
  input: TurnEvent;
  settle?(applied: boolean): void;
  /**
   * Host code to tell once the answer was applied and its effects carried out (the entries it
   * appended are in the log): the `afterCompact` hooks. The turn goes on beside it, whatever
   * becomes of the turn, and the agent's close waits for it. It bounds its own time and never throws.
   */
  applied?(): Promise<void>;
}

/** What the effect handlers work with: the agent's options and the runtime's parts. */
export interface EffectContext {
  readonly options: ResolvedAgentOptions;
  readonly model: TillerModel;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly toolSpecs: ToolSpec[];
  readonly session: SessionLog;
  readonly journal: JournalWriter;
  readonly meter: ContextMeter;
  readonly approvals: Approvals;
  readonly guard: PolicyGuard | undefined;
  /** Tool outcomes a journal kept from before a crash, by batch id: used instead of running the calls again. */
  readonly resumed: Map<string, ReadonlyMap<string, ToolOutcome>>;
  /** What the running model call has streamed so far (handed to the core with an abort). */
  readonly partial: PartialReply;
  publish(event: AgentEvent): void;
  /** Sends the runtime the answer to effect `id` that no background work carries (the decisions of a parked batch). */
  answer(id: string, input: TurnEvent): void;
  /** A turn ended (its entries are in the log): its waiters hear how, and the log is free for another agent's turn. */
  turnEnded(outcome: TurnOutcome): void;
}
