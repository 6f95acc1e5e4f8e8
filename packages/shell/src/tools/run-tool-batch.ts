import type { ApprovalDecision, ToolCallPart, ToolOutcome } from '@tiller/core';
import { z } from 'zod';
import type { Tool } from './define-tool.js';
import type { PolicyDecision, ToolPolicy } from './policy.js';
import { errorOutcome, toolOutcome, truncateOutcome } from './tool-output.js';

export interface ToolBatchOptions {
  calls: readonly ToolCallPart[];
  /** Decisions the host already made; those calls are not put to the policy again. */
  decisions: readonly ApprovalDecision[];
  tools: ReadonlyMap<string, Tool>;
  policy: ToolPolicy | undefined;
  signal: AbortSignal;
  maxConcurrency: number;
  defaultTimeoutMs: number;
  maxOutputChars: number;
  /** Outcomes already known (a resumed batch): used as they are, the tool not run again. */
  settled?: ReadonlyMap<string, ToolOutcome> | undefined;
  /** Told before a tool runs (and awaited: a journal records it first) and after it finished. */
  onStart?: ((call: ToolCallPart) => void | Promise<void>) | undefined;
  onFinish?: ((call: ToolCallPart, outcome: ToolOutcome, durationMs: number) => void | Promise<void>) | undefined;
}

export type ToolBatchResult = { kind: 'ask'; toolCallIds: string[] } | { kind: 'done'; results: ToolOutcome[] };

type Plan = { kind: 'fixed'; outcome: ToolOutcome } | { kind: 'ask' } | { kind: 'run'; tool: Tool; args: unknown };

/**
 * One batch of tool calls: checks each (known tool, valid arguments), applies decisions and the
 * policy, and, when nothing is left to ask, runs the allowed calls in parallel up to the cap (one
 * at a time when a `sequential` tool is among them). Results come back in the order of the calls.
 */
export async function runToolBatch(options: ToolBatchOptions): Promise<ToolBatchResult> {
  const decided = new Map(options.decisions.map((d) => [d.toolCallId, d]));
  const plans: Plan[] = [];
  for (const call of options.calls) plans.push(await planCall(call, decided.get(call.id), options));
  const asked = options.calls.filter((_, i) => plans[i]!.kind === 'ask').map((c) => c.id);
  if (asked.length > 0) return { kind: 'ask', toolCallIds: asked };

  const runnable = plans.flatMap((plan, i) => (plan.kind === 'run' ? [{ plan, call: options.calls[i]!, index: i }] : []));
  const concurrency = runnable.some(({ plan }) => plan.tool.sequential) ? 1 : Math.max(1, options.maxConcurrency);
  const results: ToolOutcome[] = plans.map((plan) => (plan.kind === 'fixed' ? plan.outcome : errorOutcome('', '')));
  let next = 0;
  const worker = async () => {
    while (next < runnable.length && !options.signal.aborted) {
      const { plan, call, index } = runnable[next++]!;
      results[index] = await runCall(plan.tool, call, plan.args, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, runnable.length) }, worker));
  return { kind: 'done', results };
}

async function planCall(call: ToolCallPart, decision: ApprovalDecision | undefined, options: ToolBatchOptions): Promise<Plan> {
  const settled = options.settled?.get(call.id);
  if (settled) return { kind: 'fixed', outcome: settled };
  const tool = options.tools.get(call.name);
  if (!tool) {
    const known = [...options.tools.keys()].join(', ') || 'none';
    return fixed(call, `Unknown tool "${call.name}". The tools available are: ${known}.`);
  }
  const parsed = tool.input.safeParse(call.args);
  if (!parsed.success) {
    return fixed(call, `Invalid arguments for tool "${call.name}":\n${z.prettifyError(parsed.error)}\nCall the tool again with arguments that match its schema.`);
  }
  const verdict: PolicyDecision = decision ?? (options.policy ? await askPolicy(options.policy, call) : { decision: 'allow' });
  switch (verdict.decision) {
    case 'allow':
      return { kind: 'run', tool, args: parsed.data };
    case 'deny':
      return fixed(call, `The call to "${call.name}" was denied: ${verdict.rationale}`);
    case 'ask':
      return { kind: 'ask' };
    default: {
      const unknown: never = verdict;
      throw new TypeError(`unknown policy decision ${JSON.stringify(unknown)}`);
    }
  }
}

/** A policy that throws or answers nonsense denies: running a tool nobody allowed is the worse mistake. */
async function askPolicy(policy: ToolPolicy, call: ToolCallPart): Promise<PolicyDecision> {
  try {
    const verdict = await policy(call);
    if (verdict?.decision === 'allow' || verdict?.decision === 'ask') return verdict;
    if (verdict?.decision === 'deny') return { decision: 'deny', rationale: String(verdict.rationale ?? 'denied by policy') };
    return { decision: 'deny', rationale: `the policy gave no valid decision (${JSON.stringify(verdict)})` };
  } catch (error) {
    return { decision: 'deny', rationale: `the policy failed: ${(error as Error).message}` };
  }
}

function fixed(call: ToolCallPart, text: string): Plan {
  return { kind: 'fixed', outcome: errorOutcome(call.id, text) };
}

async function runCall(tool: Tool, call: ToolCallPart, args: unknown, options: ToolBatchOptions): Promise<ToolOutcome> {
  await options.onStart?.(call);
  const started = performance.now();
  const outcome = truncateOutcome(await execute(tool, call, args, options), options.maxOutputChars);
  await options.onFinish?.(call, outcome, performance.now() - started);
  return outcome;
}

async function execute(tool: Tool, call: ToolCallPart, args: unknown, options: ToolBatchOptions): Promise<ToolOutcome> {
  const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
  // The tool's own signal: aborted by the turn's abort or by its timeout, whichever comes first.
  const own = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  // A tool that ignores its signal must not hold the turn: the race settles on abort or timeout.
  const stopped = new Promise<'timeout' | 'aborted'>((resolve) => {
    timer = setTimeout(() => {
      own.abort(new Error(`timed out after ${timeoutMs} ms`));
      resolve('timeout');
    }, timeoutMs);
    onAbort = () => {
      own.abort(options.signal.reason);
      resolve('aborted');
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const result = await Promise.race([
      Promise.resolve()
        .then(() => tool.execute(args, { signal: own.signal, toolCallId: call.id }))
        .then((output) => ({ output })),
      stopped,
    ]);
    if (result === 'timeout') return errorOutcome(call.id, `Tool "${call.name}" did not finish within ${timeoutMs} ms and was stopped.`);
    if (result === 'aborted') return errorOutcome(call.id, `Tool "${call.name}" was stopped: the turn was aborted.`);
    return toolOutcome(call.id, result.output);
  } catch (error) {
    if (options.signal.aborted) return errorOutcome(call.id, `Tool "${call.name}" was stopped: the turn was aborted.`);
    return errorOutcome(call.id, `Tool "${call.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal.removeEventListener('abort', onAbort);
  }
}
