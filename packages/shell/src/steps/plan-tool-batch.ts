import type { RunToolsEffect, ToolCallPart, ToolOutcome } from '@tiller/core';
import { type AgentLimits, resolveLimits } from '../agent/agent-options.js';
import type { Tool } from '../tools/define-tool.js';
import { planBatch } from '../tools/plan-batch.js';
import type { ToolPolicy } from '../tools/policy.js';
import type { ToolRefusal } from '../tools/tool-refusal.js';

/** What `planToolBatch` checks a batch against. */
export interface ToolBatchPlanOptions {
  /** The agent's tools: a call to a name not among them gets an error result saying which exist. */
  tools: readonly Tool[];
  /**
   * The agent's policy, asked about each call the host has not decided yet (`effect.decisions`).
   * A policy that throws or answers nonsense denies.
   */
  policy?: ToolPolicy | undefined;
  /** The agent's limits (the shell's defaults where left out): `maxToolConcurrency` sets the plan's `concurrency`. */
  limits?: Partial<AgentLimits> | undefined;
  /** The turn's cancellation: nothing waits on the policy once it aborts (the call is denied). */
  signal?: AbortSignal | undefined;
}

/**
 * One call of a planned batch: refused before anything ran (why, as the shell's `tool.refused`
 * event tells it, and the error result the model reads), or to be run with `runToolCall`.
 */
export type PlannedToolCall = { kind: 'refused'; call: ToolCallPart; refusal: ToolRefusal; outcome: ToolOutcome } | { kind: 'run'; call: ToolCallPart };

/** What a `run_tools` effect comes to before any tool runs. Plain data, for the engine to journal. */
export type ToolBatchPlan =
  /** The policy asks the host about these calls: answer the effect with `approval.needed` for them. */
  | { kind: 'ask'; toolCallIds: string[] }
  /**
   * Every call decided: the refused ones have their error results, the others are to run, at
   * most `concurrency` at a time (1 when a `sequential` tool is among them). Answer the effect
   * with `tools.done` carrying every call's outcome in the order of `calls`.
   */
  | { kind: 'run'; calls: PlannedToolCall[]; concurrency: number };

/**
 * The first half of a `run_tools` effect, for a durable engine to run as one step: every call
 * checked (a known tool, arguments that match its schema), the host's decisions applied and the
 * policy asked for the rest, by the same code the shell plans its batches with. Nothing runs.
 * Journaled, the plan means a replay asks the policy nothing again; the engine then runs each
 * call that is to run with `runToolCall`, each in a step of its own.
 */
export async function planToolBatch(effect: RunToolsEffect, options: ToolBatchPlanOptions): Promise<ToolBatchPlan> {
  const limits = resolveLimits(options.limits, 'planToolBatch');
  const plan = await planBatch({
    calls: effect.calls,
    decisions: effect.decisions,
    tools: new Map(options.tools.map((tool) => [tool.name, tool])),
    policy: options.policy,
    signal: options.signal ?? new AbortController().signal,
    maxConcurrency: limits.maxToolConcurrency,
  });
  if (plan.kind === 'ask') return plan;
  const calls = plan.calls.map((planned): PlannedToolCall => {
    switch (planned.kind) {
      case 'refused': {
        const { call, refusal, outcome } = planned;
        return { kind: 'refused', call, refusal, outcome };
      }
      case 'run':
        // Only the call: the plan is data for a journal, and `runToolCall` finds the tool again.
        return { kind: 'run', call: planned.call };
      case 'settled':
        throw new TypeError(`call ${planned.call.id} was settled, but planToolBatch passes no settled outcomes`);
      default: {
        const unknown: never = planned;
        throw new TypeError(`unknown batch call ${JSON.stringify(unknown)}`);
      }
    }
  });
  return { kind: 'run', calls, concurrency: plan.concurrency };
}
