import type { ApprovalDecision, ToolCallPart, ToolOutcome } from '@tiller/core';
import { z } from 'zod';
import type { Tool, ToolContext } from './define-tool.js';
import type { PolicyDecision, ToolPolicy } from './policy.js';
import type { ToolRefusal, ToolRefusalReason } from './tool-refusal.js';
import { abortable } from '../runtime/abortable.js';
import { workSignal } from '../runtime/work-signal.js';
import { errorOutcome, toolOutcome, truncateOutcome } from './tool-output.js';
import { describeThrown } from '../describe-thrown.js';

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
  onStart?: ((call: ToolCallPart) => Promise<void>) | undefined;
  onFinish?: ((call: ToolCallPart, outcome: ToolOutcome, durationMs: number) => Promise<void>) | undefined;
  /** Told of each call refused before it could run, once the batch has nothing left to ask, before any call runs. */
  onRefuse?: ((call: ToolCallPart, refusal: ToolRefusal) => void) | undefined;
  /** Told of each throw (or rejection) of an abort listener a tool added to its signal; it cannot end the process. */
  onListenerError?: ((call: ToolCallPart, error: unknown) => void) | undefined;
}

export type ToolBatchResult = { kind: 'ask'; toolCallIds: string[] } | { kind: 'done'; results: ToolOutcome[] };

/**
 * What one call of a batch comes to before anything runs: answered already (a resumed batch),
 * refused with an error result, put to the host, or to be run.
 */
export type CallPlan =
  | { kind: 'settled'; outcome: ToolOutcome }
  | { kind: 'refused'; refusal: ToolRefusal; outcome: ToolOutcome }
  | { kind: 'ask' }
  | { kind: 'run'; tool: Tool; args: unknown };

/** The options planning reads: which tools there are, what was decided, and the policy. */
export type PlanOptions = Pick<ToolBatchOptions, 'calls' | 'decisions' | 'tools' | 'policy' | 'signal' | 'settled'>;

/** The options running a planned call reads. */
export type RunCallOptions = Pick<ToolBatchOptions, 'signal' | 'defaultTimeoutMs' | 'maxOutputChars' | 'onStart' | 'onFinish' | 'onListenerError'>;

/**
 * One batch of tool calls: checks each (known tool, valid arguments), applies decisions and the
 * policy, and, when nothing is left to ask, runs the allowed calls in parallel up to the cap (one
 * at a time when a `sequential` tool is among them). Results come back in the order of the calls.
 */
export async function runToolBatch(options: ToolBatchOptions): Promise<ToolBatchResult> {
  const { calls } = options;
  const plans = await planCalls(options);
  const asked = calls.filter((_, i) => plans[i]!.kind === 'ask').map((c) => c.id);
  if (asked.length > 0) return { kind: 'ask', toolCallIds: asked };

  const results: ToolOutcome[] = [];
  const runnable: Runnable[] = [];
  let sequential = false;
  for (const [index, plan] of plans.entries()) {
    // A placeholder where a call will run: its outcome replaces it.
    results.push(plan.kind === 'settled' || plan.kind === 'refused' ? plan.outcome : errorOutcome('', ''));
    if (plan.kind === 'refused') options.onRefuse?.(calls[index]!, plan.refusal);
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

/** Checks each call (known tool, valid arguments) and applies decisions and the policy, in order; nothing runs. */
export async function planCalls(options: PlanOptions): Promise<CallPlan[]> {
  const decided = options.decisions.length === 0 ? undefined : new Map(options.decisions.map((d) => [d.toolCallId, d]));
  const plans: CallPlan[] = [];
  for (const call of options.calls) plans.push(await planCall(call, decided?.get(call.id), options));
  return plans;
}

async function planCall(call: ToolCallPart, decision: ApprovalDecision | undefined, options: PlanOptions): Promise<CallPlan> {
  const settled = options.settled?.get(call.id);
  if (settled) return { kind: 'settled', outcome: settled };
  const tool = options.tools.get(call.name);
  if (!tool) {
    const known = [...options.tools.keys()].join(', ') || 'none';
    return refused(call, 'unknown_tool', `Unknown tool "${call.name}". The tools available are: ${known}.`);
  }
  if (call.unparsedArgs !== undefined) {
    return refused(
      call,
      'unreadable_arguments',
      `Tool "${call.name}" did not run: its arguments are not a JSON object: ${preview(call.unparsedArgs)}\nCall the tool again with a JSON object that matches its schema.`,
    );
  }
  const checked = checkArgs(tool, call.args);
  if (checked.kind === 'threw') {
    return refused(call, 'schema_failed', `Tool "${call.name}" did not run: its input schema failed while checking the arguments: ${checked.message}`);
  }
  const parsed = checked.result;
  if (!parsed.success) {
    return refused(call, 'invalid_arguments', `Invalid arguments for tool "${call.name}":\n${z.prettifyError(parsed.error)}\nCall the tool again with arguments that match its schema.`);
  }
  if (decision) return follow(decision, call, tool, parsed.data);
  if (!options.policy) return { kind: 'run', tool, args: parsed.data };
  return follow(await askPolicy(options.policy, call, options.signal), call, tool, parsed.data);
}

function follow(verdict: PolicyDecision, call: ToolCallPart, tool: Tool, args: unknown): CallPlan {
  switch (verdict.decision) {
    case 'allow':
      return { kind: 'run', tool, args };
    case 'deny':
      return refused(call, 'denied', `The call to "${call.name}" was denied: ${verdict.rationale}`);
    case 'ask':
      return { kind: 'ask' };
    default: {
      const unknown: never = verdict;
      throw new TypeError(`unknown policy decision ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * A policy that throws or answers nonsense denies: running a tool nobody allowed is the worse
 * mistake. It is raced against the turn's signal: after an abort nothing waits for it.
 */
async function askPolicy(policy: ToolPolicy, call: ToolCallPart, signal: AbortSignal): Promise<PolicyDecision> {
  try {
    const verdict = await abortable(policy(call), signal);
    if (verdict?.decision === 'allow' || verdict?.decision === 'ask') return verdict;
    if (verdict?.decision === 'deny') return { decision: 'deny', rationale: String(verdict.rationale ?? 'denied by policy') };
    return { decision: 'deny', rationale: `the policy gave no valid decision (${JSON.stringify(verdict)})` };
  } catch (error) {
    if (signal.aborted) return { decision: 'deny', rationale: 'the turn was aborted before the policy decided' };
    return { decision: 'deny', rationale: `the policy failed: ${describeThrown(error)}` };
  }
}

type ArgsCheck = { kind: 'checked'; result: z.ZodSafeParseResult<unknown> } | { kind: 'threw'; message: string };

/**
 * The tool's schema over the arguments. A schema is the tool author's code too: a refine or a
 * transform that throws, or an async one (which a synchronous check cannot run), fails this call
 * alone, not the batch.
 */
function checkArgs(tool: Tool, args: unknown): ArgsCheck {
  try {
    return { kind: 'checked', result: tool.input.safeParse(args) };
  } catch (error) {
    return { kind: 'threw', message: describeThrown(error) };
  }
}

function refused(call: ToolCallPart, reason: ToolRefusalReason, message: string): CallPlan {
  return { kind: 'refused', refusal: { reason, message }, outcome: errorOutcome(call.id, message) };
}

/** Runs one planned call: told to `onStart`, timed out, raced against the signal, its output checked and cut, told to `onFinish`. */
export async function runCall(tool: Tool, call: ToolCallPart, args: unknown, options: RunCallOptions): Promise<ToolOutcome> {
  await options.onStart?.(call);
  const started = performance.now();
  const outcome = truncateOutcome(await execute(tool, call, args, options), options.maxOutputChars);
  await options.onFinish?.(call, outcome, performance.now() - started);
  return outcome;
}

/**
 * Runs one call, raced against the turn's signal and the call's time limit, so a tool that
 * ignores them cannot hold the turn past its time or an abort; whatever it returns later is
 * dropped. The limit's timer is cleared when the call ends (`AbortSignal.timeout` would keep one
 * pending for the whole limit after every call).
 */
async function execute(tool: Tool, call: ToolCallPart, args: unknown, options: RunCallOptions): Promise<ToolOutcome> {
  const turn = options.signal;
  if (turn.aborted) return abortedOutcome(call);
  const timeoutMs = tool.timeoutMs ?? options.defaultTimeoutMs;
  const work = workSignal(turn, (error) => options.onListenerError?.(call, error));
  const timer = setTimeout(() => work.stop(new DOMException(`the call did not finish within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  const context: ToolContext = { toolCallId: call.id, signal: work.signal };
  try {
    const output = await abortable(
      Promise.resolve().then(() => tool.execute(args, context)),
      work.signal,
    );
    // An abort the tool caused while it ran still counts.
    return turn.aborted ? abortedOutcome(call) : toolOutcome(call.id, call.name, output);
  } catch (error) {
    if (turn.aborted) return abortedOutcome(call);
    if (work.signal.aborted) return errorOutcome(call.id, `Tool "${call.name}" did not finish within ${timeoutMs} ms and was stopped.`);
    return errorOutcome(call.id, `Tool "${call.name}" failed: ${describeThrown(error)}`);
  } finally {
    clearTimeout(timer);
    work.end();
  }
}

function abortedOutcome(call: ToolCallPart): ToolOutcome {
  return errorOutcome(call.id, `Tool "${call.name}" was stopped: the turn was aborted.`);
}

/** Enough of what the model sent for it to see its mistake, not a whole runaway reply. */
function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}
