import type { ApprovalDecision, ToolCallPart, ToolOutcome } from '@tiller/core';
import { z } from 'zod';
import type { Tool } from './define-tool.js';
import type { PolicyDecision, ToolPolicy } from './policy.js';
import { refusalOutcome, type ToolRefusal, type ToolRefusalReason } from './tool-refusal.js';
import { abortable } from '../runtime/abortable.js';
import { describeThrown } from '../describe-thrown.js';

/**
 * What one call of a batch comes to before anything runs: answered already (a resumed batch),
 * refused with an error result, put to the host, or to be run.
 */
export type CallPlan =
  | { kind: 'settled'; outcome: ToolOutcome }
  | { kind: 'refused'; refusal: ToolRefusal; outcome: ToolOutcome }
  | { kind: 'ask' }
  | { kind: 'run'; tool: Tool; args: unknown };

/** What planning reads: the calls, which tools there are, what was decided, and the policy. */
export interface PlanOptions {
  calls: readonly ToolCallPart[];
  /** Decisions the host already made; those calls are not put to the policy again. */
  decisions: readonly ApprovalDecision[];
  tools: ReadonlyMap<string, Tool>;
  policy: ToolPolicy | undefined;
  /** The turn's signal: nothing waits on the policy once it aborts (the call is denied). */
  signal: AbortSignal;
  /** Outcomes already known (a resumed batch): used as they are, the tool not run again. */
  settled?: ReadonlyMap<string, ToolOutcome> | undefined;
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
  const refusal = { reason, message };
  return { kind: 'refused', refusal, outcome: refusalOutcome(call.id, refusal) };
}

/** Enough of what the model sent for it to see its mistake, not a whole runaway reply. */
function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
}
