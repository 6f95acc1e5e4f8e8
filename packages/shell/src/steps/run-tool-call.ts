import type { ToolCallPart, ToolOutcome } from '@tiller/core';
import { type AgentLimits, resolveLimits } from '../agent/agent-options.js';
import type { Tool } from '../tools/define-tool.js';
import { planCalls } from '../tools/plan-call.js';
import { runCall } from '../tools/run-call.js';

/** How `runToolCall` runs a call. */
export interface ToolCallOptions {
  /** The agent's tools; the call runs the one it names. */
  tools: readonly Tool[];
  /**
   * The agent's limits (the shell's defaults where left out): `toolTimeoutMs` for a tool without a
   * `timeoutMs` of its own, `maxToolOutputChars` to cut its result.
   */
  limits?: Partial<AgentLimits> | undefined;
  /**
   * The turn's cancellation, joined with the call's time limit into the tool's own signal. Once
   * either fires, nothing waits on the tool (even one that ignores it) and the call gets an
   * error result saying why.
   */
  signal?: AbortSignal | undefined;
  /** Told before the tool runs (and awaited, so a journal can record that it started first). */
  onStart?: ((call: ToolCallPart) => Promise<void> | void) | undefined;
  /** Told once the tool finished, with its outcome and how long it took. */
  onFinish?: ((call: ToolCallPart, outcome: ToolOutcome, durationMs: number) => Promise<void> | void) | undefined;
  /** Told when an abort listener the tool added to its signal throws or rejects (which then cannot end the process). */
  onListenerError?: ((call: ToolCallPart, error: unknown) => void) | undefined;
}

/**
 * The second half of a `run_tools` effect: one call the plan (`planToolBatch`) said is to run, for
 * a durable engine to run in a step of its own. The shell's way with a tool: the arguments checked
 * and parsed by the tool's schema, its time limit, the turn's signal, an error or junk output as an
 * error result the model can read, a long result cut. It never throws for anything the tool does;
 * the outcome is plain data, for the engine to journal.
 *
 * Whether a call that was started and not finished before a crash may run again is the engine's
 * to decide before it calls this: `settleInterruptedCalls` from `@tiller/core` is the rule.
 */
export async function runToolCall(call: ToolCallPart, options: ToolCallOptions): Promise<ToolOutcome> {
  const limits = resolveLimits(options.limits, 'runToolCall');
  const tools = new Map(options.tools.map((tool) => [tool.name, tool]));
  const signal = options.signal ?? new AbortController().signal;
  // The plan decided it runs: only the checks of a known tool and valid arguments apply again.
  const plan = (await planCalls({ calls: [call], decisions: [{ toolCallId: call.id, decision: 'allow' }], tools, policy: undefined, signal }))[0]!;
  switch (plan.kind) {
    case 'settled':
    case 'refused':
      return plan.outcome;
    case 'run': {
      const { onStart, onFinish, onListenerError } = options;
      return runCall(plan.tool, call, plan.args, {
        signal,
        defaultTimeoutMs: limits.toolTimeoutMs,
        maxOutputChars: limits.maxToolOutputChars,
        onStart: onStart && (async (c) => onStart(c)),
        onFinish: onFinish && (async (c, outcome, durationMs) => onFinish(c, outcome, durationMs)),
        onListenerError,
      });
    }
    case 'ask':
      throw new TypeError(`call ${call.id} was allowed and still asks`);
    default: {
      const unknown: never = plan;
      throw new TypeError(`unknown call plan ${JSON.stringify(unknown)}`);
    }
  }
}
