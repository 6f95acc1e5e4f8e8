import { randomUUID } from 'node:crypto';
import * as restate from '@restatedev/restate-sdk';
import { type RunToolsEffect, settleInterruptedCalls, type ToolCallPart, type ToolOutcome, type TurnEvent } from '@tiller/core';
import { type AgentLimits, runToolBatch, type Tool, type ToolBatchResult, type ToolPolicy } from '@tiller/shell';

export interface DurableToolsDeps {
  ctx: restate.Context;
  tools: ReadonlyMap<string, Tool>;
  policy: ToolPolicy | undefined;
  limits: AgentLimits;
  /** The turn's signal: aborted when the invocation is cancelled. */
  signal: AbortSignal;
}

/** What the plan step records for a call that passed its checks and will run. */
const WILL_RUN = 'tiller.willRun';

/**
 * Carries out `run_tools` in durable steps:
 * 1. one step plans the batch with the shell's batch runner over stand-ins that do not run
 *    (unknown tools, invalid arguments, the policy and the host's decisions), so a replay asks
 *    the policy nothing again;
 * 2. the calls that will run go in waves of at most `maxToolConcurrency` (one at a time when a
 *    `sequential` tool is among them): a marker step per call records that it started, then one
 *    step per call runs it through the shell's runner (timeout, the turn's signal, errors and junk
 *    as error results, truncation) and records its outcome. The calls of a wave run in parallel.
 * A replay that finds a marker but no outcome applies core's `settleInterruptedCalls`, the rule
 * the shell's resume applies too: an idempotent tool runs again, any other is answered
 * "interrupted" and never runs twice. A replay that finds the outcome uses it. Each wave is
 * awaited as one combined promise: the SDK drives one awaited promise at a time.
 */
export async function runToolsDurably(effect: RunToolsEffect, deps: DurableToolsDeps): Promise<TurnEvent> {
  const { ctx } = deps;
  const plan = await ctx.run(`plan ${effect.id}`, () => planBatch(effect, deps), { maxRetryAttempts: 3 });
  const at = () => ctx.date.toJSON();
  if (plan.kind === 'ask') return { type: 'approval.needed', id: effect.id, toolCallIds: plan.toolCallIds, at: await at() };
  const results = plan.results;
  const runnable = effect.calls.filter((_, i) => isWillRun(results[i]!));
  const sequential = runnable.some((call) => deps.tools.get(call.name)?.sequential === true);
  const width = sequential ? 1 : Math.max(1, deps.limits.maxToolConcurrency);
  for (let from = 0; from < runnable.length; from += width) {
    const wave = runnable.slice(from, from + width);
    for (const [call, outcome] of await runWave(wave, deps)) results[effect.calls.indexOf(call)] = outcome;
  }
  return { type: 'tools.done', id: effect.id, results, at: await at() };
}

/** The shell's runner over stand-ins: fixed outcomes stay as they are, calls that would run are marked. */
async function planBatch(effect: RunToolsEffect, deps: DurableToolsDeps): Promise<ToolBatchResult> {
  const standIns = new Map<string, Tool>();
  for (const [name, tool] of deps.tools) standIns.set(name, { ...tool, execute: () => ({ content: [], details: WILL_RUN }) });
  return runToolBatch({
    calls: effect.calls,
    decisions: effect.decisions,
    tools: standIns,
    policy: deps.policy,
    signal: deps.signal,
    maxConcurrency: effect.calls.length || 1,
    defaultTimeoutMs: deps.limits.toolTimeoutMs,
    maxOutputChars: deps.limits.maxToolOutputChars,
  });
}

const isWillRun = (outcome: ToolOutcome) => outcome.details === WILL_RUN && !outcome.isError;

/** The markers of a wave, then its runs, each as one combined step. */
async function runWave(wave: readonly ToolCallPart[], deps: DurableToolsDeps): Promise<Array<[ToolCallPart, ToolOutcome]>> {
  const { ctx } = deps;
  // Only this attempt knows this token: a marker that holds another one was written before a crash.
  const token = randomUUID();
  const markers = await restate.RestatePromise.all(wave.map((call) => ctx.run(`started ${call.id}`, () => token)));
  // A finished call never gets here on a replay: its outcome step answers from the journal.
  const { settled } = settleInterruptedCalls({
    calls: wave,
    started: new Set(wave.filter((_, i) => markers[i] !== token).map((call) => call.id)),
    finished: new Map(),
    isIdempotent: (name) => deps.tools.get(name)?.idempotent === true,
  });
  const outcomes = await restate.RestatePromise.all(
    wave.map((call) =>
      ctx.run(
        `tool ${call.id}`,
        async (): Promise<ToolOutcome> => settled.get(call.id) ?? runOne(deps.tools.get(call.name)!, call, deps),
        { maxRetryAttempts: 1 },
      ),
    ),
  );
  return wave.map((call, i) => [call, outcomes[i]!]);
}

/** Runs the real tool through the shell's runner: argument check, timeout, abort, errors as results, truncation. */
async function runOne(tool: Tool, call: ToolCallPart, deps: DurableToolsDeps): Promise<ToolOutcome> {
  try {
    const result = await runToolBatch({
      calls: [call],
      decisions: [{ toolCallId: call.id, decision: 'allow' }],
      tools: new Map([[tool.name, tool]]),
      policy: undefined,
      signal: deps.signal,
      maxConcurrency: 1,
      defaultTimeoutMs: deps.limits.toolTimeoutMs,
      maxOutputChars: deps.limits.maxToolOutputChars,
    });
    if (result.kind === 'done' && result.results[0]) return result.results[0];
    throw new Error('the batch runner asked for an approval the call already had');
  } catch (error) {
    return { toolCallId: call.id, content: [{ type: 'text', text: `Tool "${call.name}" failed: ${(error as Error).message}` }], isError: true };
  }
}
