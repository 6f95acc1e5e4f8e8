import { z } from 'zod';
import { turnMachineStates } from './coverage.js';
import { pathName, stepLabel, type AgentPath, type PathStep, type ReplyKind } from './path-step.js';

const PlannedCallSchema = z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()), policy: z.enum(['allow', 'ask', 'deny']).optional() });

const STEP_SCHEMAS = {
  prompt: z.strictObject({ do: z.literal('prompt') }),
  steer: z.strictObject({ do: z.literal('steer') }),
  follow_up: z.strictObject({ do: z.literal('follow_up') }),
  abort: z.strictObject({ do: z.literal('abort') }),
  boundary: z.strictObject({ do: z.literal('boundary') }),
  reply: z.strictObject({
    do: z.literal('reply'),
    reply: z.enum(['text', 'tool_call', 'parallel_tool_calls', 'error', 'aborted']),
    calls: z.array(PlannedCallSchema),
    retried: z.array(z.enum(['transient', 'rate_limited'])),
  }),
  fail: z.strictObject({ do: z.literal('fail'), error: z.enum(['transient', 'overflow', 'fatal']) }),
  policy_asks: z.strictObject({ do: z.literal('policy_asks') }),
  tools: z.strictObject({ do: z.literal('tools'), outcome: z.enum(['ok', 'throw', 'timeout']) }),
  approve: z.strictObject({ do: z.literal('approve'), decision: z.enum(['allow', 'deny', 'timeout']) }),
  crash: z.strictObject({ do: z.literal('crash') }),
} satisfies { [K in PathStep['do']]: z.ZodType<Extract<PathStep, { do: K }>> };

/** How many calls each kind of reply makes: the world plays the reply with exactly these. */
const CALLS_OF: Record<ReplyKind, number> = { text: 0, tool_call: 1, parallel_tool_calls: 2, error: 0, aborted: 0 };

/** The states a step can lead to, as a run names them (`tools.running`): the turn machine's leaves. */
const STATES = (() => {
  const ids = turnMachineStates();
  return ids.filter((id) => !ids.some((other) => other.startsWith(`${id}.`))).map((id) => id.replace(/^turn\./, ''));
})();

/**
 * Reads a script back (what `formatPath` printed, or the path object itself). Every field of
 * every step is checked, so a broken script fails here, saying which step and why, instead of
 * failing the run later as if the agent had gone astray.
 */
export function parsePath(script: string | AgentPath): AgentPath {
  const path = (typeof script === 'string' ? parseJson(script) : script) as Partial<AgentPath> | null;
  if (!path || typeof path !== 'object' || !Array.isArray(path.steps) || path.iterations === undefined) {
    throw new TypeError('parsePath: a path is {name, iterations, steps: [{step, state}]}: this script has no steps or no iterations');
  }
  if (typeof path.iterations !== 'number' || !Number.isInteger(path.iterations) || path.iterations < 0) {
    throw new TypeError(`parsePath: iterations must be a whole number of model calls (0 or more), got ${JSON.stringify(path.iterations)}`);
  }
  if (path.name !== undefined && typeof path.name !== 'string') throw new TypeError(`parsePath: the name of a path is text, got ${JSON.stringify(path.name)}`);
  for (const [i, s] of path.steps.entries()) {
    if (!s || typeof s !== 'object' || Object.keys(s).some((k) => k !== 'step' && k !== 'state') || typeof s.step?.do !== 'string' || typeof s.state !== 'string') {
      throw new TypeError(`parsePath: step ${i + 1} of the script is not {step: {do, ...}, state}: ${JSON.stringify(s)}`);
    }
    const problem = stepProblem(s.step);
    if (problem) throw new TypeError(`parsePath: step ${i + 1}${s.step.do in STEP_SCHEMAS ? ` (${s.step.do})` : ''} is malformed:${problem}`);
    if (!STATES.includes(s.state)) {
      throw new TypeError(`parsePath: step ${i + 1} (${s.step.do}) leads to ${JSON.stringify(s.state)}, which is not a state of the turn; the states are ${STATES.join(', ')}`);
    }
  }
  return { name: path.name ?? pathName(path.steps), iterations: path.iterations, steps: path.steps };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TypeError(`parsePath: the script is not JSON: ${(error as Error).message}`);
  }
}

/** What is wrong with a step, starting with a space or a new line, or null. */
function stepProblem(step: { do: string }): string | null {
  if (!Object.hasOwn(STEP_SCHEMAS, step.do)) return ` ${JSON.stringify(step.do)} is not a step; the steps are ${Object.keys(STEP_SCHEMAS).join(', ')}`;
  const parsed = STEP_SCHEMAS[step.do as PathStep['do']].safeParse(step);
  if (!parsed.success) return `\n${z.prettifyError(parsed.error)}`;
  if (parsed.data.do !== 'reply') return null;
  const { reply, calls } = parsed.data;
  const expected = CALLS_OF[reply];
  return calls.length === expected ? null : ` a reply:${reply} makes ${expected} call${expected === 1 ? '' : 's'}, this one lists ${calls.length}`;
}

/**
 * Refuses a path that calls a tool the agent does not have: the shell would answer such a call
 * with an error result, and the run would then blame the agent for a script that cannot apply.
 */
export function checkPathTools(entryPoint: string, path: AgentPath, tools: readonly string[]): void {
  for (const [i, { step }] of path.steps.entries()) {
    if (step.do !== 'reply') continue;
    const unknown = step.calls.find((call) => !tools.includes(call.tool));
    if (unknown) {
      throw new TypeError(`${entryPoint}: step ${i + 1} (reply) calls tool ${JSON.stringify(unknown.tool)}, which the agent does not have (its tools: ${tools.join(', ') || 'none'})`);
    }
  }
}

/**
 * Refuses a path whose reply comes after more failed attempts than the agent retries: the shell
 * gives up first, and the run would blame the agent (follows-path) for a script that cannot apply.
 */
export function checkPathRetries(entryPoint: string, path: AgentPath, maxRetries: number): void {
  for (const [i, { step }] of path.steps.entries()) {
    if (step.do !== 'reply' || step.retried.length <= maxRetries) continue;
    const times = `${step.retried.length} time${step.retried.length === 1 ? '' : 's'}`;
    throw new TypeError(
      `${entryPoint}: step ${i + 1} (${stepLabel(step)}) has the model fail ${times} before it replies, but the agent gives up after ${maxRetries} ${maxRetries === 1 ? 'retry' : 'retries'} (limits.maxRetries); leave transient and rate_limited out of agentPaths({ faults }), or give the agent more retries`,
    );
  }
}
