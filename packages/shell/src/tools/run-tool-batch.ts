import type { ApprovalDecision, ToolCallPart, ToolOutcome } from '@tiller/core';
import { z } from 'zod';
import type { Tool, ToolContext } from './define-tool.js';
import type { PolicyDecision, ToolPolicy } from './policy.js';
import { CallSignal } from './call-signal.js';
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
  const { calls } = options;
  const decided = options.decisions.length === 0 ? undefined : new Map(options.decisions.map((d) => [d.toolCallId, d]));
  const plans: Plan[] = [];
  for (const call of calls) {
    // A policy may answer at once; only one that returns a promise is waited for.
    const plan = planCall(call, decided?.get(call.id), options);
    plans.push(plan instanceof Promise ? await plan : plan);
  }
  const asked = calls.filter((_, i) => plans[i]!.kind === 'ask').map((c) => c.id);
  if (asked.length > 0) return { kind: 'ask', toolCallIds: asked };

  const results: ToolOutcome[] = [];
  const runnable: Runnable[] = [];
  let sequential = false;
  for (const [index, plan] of plans.entries()) {
    // A placeholder where a call will run: its outcome replaces it.
    results.push(plan.kind === 'fixed' ? plan.outcome : errorOutcome('', ''));
    if (plan.kind === 'run') {
      runnable.push({ tool: plan.tool, call: calls[index]!, args: plan.args, index });
      sequential ||= plan.tool.sequential === true;
    }
  }
  const width = Math.min(sequential ? 1 : Math.max(1, options.maxConcurrency), runnable.length);
  const work = { runnable, next: 0, results };
  if (width === 1) await runInTurn(work, options);
  else if (width > 1) await Promise.all(Array.from({ length: width }, () => runInTurn(work, options)));
  return { kind: 'done', results };
}

type Runnable = { tool: Tool; call: ToolCallPart; args: unknown; index: number };

/** One worker: takes the next call not yet taken until none is left or the turn is aborted. */
async function runInTurn(work: { runnable: readonly Runnable[]; next: number; results: ToolOutcome[] }, options: ToolBatchOptions): Promise<void> {
  while (work.next < work.runnable.length && !options.signal.aborted) {
    const { tool, call, args, index } = work.runnable[work.next++]!;
    work.results[index] = await runCall(tool, call, args, options);
  }
}

function planCall(call: ToolCallPart, decision: ApprovalDecision | undefined, options: ToolBatchOptions): Plan | Promise<Plan> {
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
  if (decision) return follow(decision, call, tool, parsed.data);
  if (!options.policy) return { kind: 'run', tool, args: parsed.data };
  return askPolicy(options.policy, call).then((verdict) => follow(verdict, call, tool, parsed.data));
}

function follow(verdict: PolicyDecision, call: ToolCallPart, tool: Tool, args: unknown): Plan {
  switch (verdict.decision) {
    case 'allow':
      return { kind: 'run', tool, args };
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
  const ran = execute(tool, call, args, options);
  const outcome = truncateOutcome(ran instanceof Promise ? await ran : ran, options.maxOutputChars);
  await options.onFinish?.(call, outcome, performance.now() - started);
  return outcome;
}

/**
 * Runs one call. A tool that answers at once (returns no promise) is done before any timer could
 * fire, so it gets none; one that returns a promise races its timeout and the turn's abort, so a
 * tool that ignores its signal cannot hold the turn.
 */
function execute(tool: Tool, call: ToolCallPart, args: unknown, options: ToolBatchOptions): ToolOutcome | Promise<ToolOutcome> {
  const turn = options.signal;
  if (turn.aborted) return abortedOutcome(call);
  const own = new CallSignal(turn);
  const context: ToolContext = {
    toolCallId: call.id,
    get signal() {
      return own.signal;
    },
  };
  let output: unknown;
  try {
    output = tool.execute(args, context);
  } catch (error) {
    own.release();
    return failedOutcome(call, error, turn);
  }
  if (!isPromiseLike(output)) {
    own.release();
    // An abort the tool caused while it ran still counts.
    return turn.aborted ? abortedOutcome(call) : toolOutcome(call.id, output);
  }
  const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
  return new Promise<ToolOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: ToolOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      turn.removeEventListener('abort', onAbort);
      own.release();
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      own.stop(new Error(`timed out after ${timeoutMs} ms`));
      settle(errorOutcome(call.id, `Tool "${call.name}" did not finish within ${timeoutMs} ms and was stopped.`));
    }, timeoutMs);
    const onAbort = () => {
      own.stop(turn.reason);
      settle(abortedOutcome(call));
    };
    if (turn.aborted) onAbort();
    else turn.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(output).then(
      (value) => settle(toolOutcome(call.id, value)),
      (error: unknown) => settle(failedOutcome(call, error, turn)),
    );
  });
}

function abortedOutcome(call: ToolCallPart): ToolOutcome {
  return errorOutcome(call.id, `Tool "${call.name}" was stopped: the turn was aborted.`);
}

function failedOutcome(call: ToolCallPart, error: unknown, turn: AbortSignal): ToolOutcome {
  if (turn.aborted) return abortedOutcome(call);
  return errorOutcome(call.id, `Tool "${call.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
