import type { RunToolsEffect, ToolCallPart, ToolOutcome } from '@tiller/core';
import { type AgentLimits, resolveLimits } from '../agent/agent-options.js';
import type { Tool } from '../tools/define-tool.js';
import type { ToolPolicy } from '../tools/policy.js';
import { planCalls } from '../tools/run-tool-batch.js';

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

/** One call of a planned batch: answered already, or to be run with `runToolCall`. */
export type PlannedToolCall = { kind: 'settled'; call: ToolCallPart; outcome: ToolOutcome } | { kind: 'run'; call: ToolCallPart };

/** What a `run_tools` effect comes to before any tool runs. Plain data, for the engine to journal. */
export type ToolBatchPlan =
  /** The policy asks the host about these calls: answer the effect with `approval.needed` for them. */
  | { kind: 'ask'; toolCallIds: string[] }
  /**
   * Every call decided: the settled ones have their (error) results, the others are to run, at
   * most `concurrency` at a time (1 when a `sequential` tool is among them). Answer the effect
   * with `tools.done` carrying every call's outcome in the order of `calls`.
   */
  | { kind: 'run'; calls: PlannedToolCall[]; concurrency: number };

/**
 * The first half of a `run_tools` effect, for a durable engine to run as one step: every call
 * checked (a known tool, arguments that match its schema), the host's decisions applied and the
 * policy asked for the rest. Nothing runs. Journaled, the plan means a replay asks the policy
 * nothing again; the engine then runs each call that is to run with `runToolCall`, each in a step
 * of its own.
 */
export async function planToolBatch(effect: RunToolsEffect, options: ToolBatchPlanOptions): Promise<ToolBatchPlan> {
  const limits = resolveLimits(options.limits, 'planToolBatch');
  const tools = new Map(options.tools.map((tool) => [tool.name, tool]));
  const plans = await planCalls({
    calls: effect.calls,
    decisions: effect.decisions,
    tools,
    policy: options.policy,
    signal: options.signal ?? new AbortController().signal,
  });
  const asked = effect.calls.filter((_, i) => plans[i]!.kind === 'ask').map((call) => call.id);
  if (asked.length > 0) return { kind: 'ask', toolCallIds: asked };
  let sequential = false;
  const calls = effect.calls.map((call, i): PlannedToolCall => {
    const plan = plans[i]!;
    switch (plan.kind) {
      case 'settled':
      case 'refused':
        return { kind: 'settled', call, outcome: plan.outcome };
      case 'run':
        sequential ||= plan.tool.sequential === true;
        return { kind: 'run', call };
      case 'ask':
        throw new TypeError(`call ${call.id} is still to be asked`);
      default: {
        const unknown: never = plan;
        throw new TypeError(`unknown call plan ${JSON.stringify(unknown)}`);
      }
    }
  });
  return { kind: 'run', calls, concurrency: sequential ? 1 : limits.maxToolConcurrency };
}
