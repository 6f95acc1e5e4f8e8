/**
 * A path is a script of what the world does to an agent, one step at a time: the host's calls,
 * the model's replies and failures, the tools' outcomes, the approvals, a crash. Each step names
 * the state of the turn it leads to, so a run can say where it left the path.
 */

/** What the model answers with. */
export type ReplyKind =
  /** Text only: the turn ends (or goes on with a queued steer or follow-up). */
  | 'text'
  /** One tool call. */
  | 'tool_call'
  /** Two tool calls in one message, run as one batch. */
  | 'parallel_tool_calls'
  /** A reply that ends with `stopReason: 'error'`. */
  | 'error'
  /** A stream the provider ended as aborted: the partial message is kept. */
  | 'aborted';

/** A failure the shell retries before the reply comes (with no input to the turn). */
export type RetriedFault = 'transient' | 'rate_limited';

/** A model call that fails for good: transient after every retry, an overflow, or fatal. */
export type FailureKind = 'transient' | 'overflow' | 'fatal';

/** How the running tool calls end: each call of the batch runs for real and returns, or the first allowed call throws or times out instead. */
export type ToolOutcomeKind = 'ok' | 'throw' | 'timeout';

/** The host's answer to an approval request; `timeout` gives none, so the approval timeout denies. */
export type ApprovalKind = 'allow' | 'deny' | 'timeout';

/** What the agent's policy does with a tool: the class a generated call belongs to. */
export type CallClass = 'allow' | 'ask' | 'deny';

/** A tool call the model makes, with arguments drawn from the tool's schema. */
export interface PlannedCall {
  tool: string;
  args: Record<string, unknown>;
  /**
   * What the agent's policy is declared to do with this call (`agentPaths`'s `policy`): a run
   * checks that the agent does it (the invariant `policy-as-declared`). A script without it
   * (written before calls carried it) is not checked for it.
   */
  policy?: CallClass;
}

/** The id the world gives call `callIndex` (from 0) of the reply at step `stepIndex` (from 0) of a path. */
export function plannedCallId(stepIndex: number, callIndex: number): string {
  return `call-${stepIndex + 1}-${callIndex + 1}`;
}

export type PathStep =
  | { do: 'prompt' }
  | { do: 'steer' }
  | { do: 'follow_up' }
  | { do: 'abort' }
  /** A steering boundary passes: the agent's compactor runs. */
  | { do: 'boundary' }
  | { do: 'reply'; reply: ReplyKind; calls: PlannedCall[]; retried: RetriedFault[] }
  | { do: 'fail'; error: FailureKind }
  /** The agent's policy asks for approval of the batch (no world action: the step waits for it). */
  | { do: 'policy_asks' }
  | { do: 'tools'; outcome: ToolOutcomeKind }
  | { do: 'approve'; decision: ApprovalKind }
  /** The process dies here (what is written stays written); the turn is resumed from the journal. */
  | { do: 'crash' };

/** A step and the state of the turn after it (`tools.running`, `idle`, ...). */
export interface ScriptedStep {
  step: PathStep;
  state: string;
}

export interface AgentPath {
  /** Readable and unique: `prompt > boundary > reply:tool_call(read_note) > tools:ok > ...`. */
  name: string;
  /** The agent's `limits.maxIterations` this path assumes (the kit sets it). */
  iterations: number;
  steps: ScriptedStep[];
}

/** One step, short: `reply:tool_call(read_note)`, `transient+reply:text`, `approve:deny`. */
export function stepLabel(step: PathStep): string {
  switch (step.do) {
    case 'prompt':
    case 'steer':
    case 'follow_up':
    case 'abort':
    case 'boundary':
    case 'policy_asks':
    case 'crash':
      return step.do;
    case 'reply': {
      const retried = step.retried.map((f) => `${f}+`).join('');
      const calls = step.calls.length > 0 ? `(${step.calls.map((c) => c.tool).join(',')})` : '';
      return `${retried}reply:${step.reply}${calls}`;
    }
    case 'fail':
      return `fail:${step.error}`;
    case 'tools':
      return `tools:${step.outcome}`;
    case 'approve':
      return `approve:${step.decision}`;
    default: {
      const unknown: never = step;
      throw new TypeError(`unknown path step ${JSON.stringify(unknown)}`);
    }
  }
}

export function pathName(steps: readonly ScriptedStep[]): string {
  return steps.map((s) => stepLabel(s.step)).join(' > ');
}

/**
 * The path as a script that `runPath` takes back (`runPath(JSON.parse(script), makeAgent)`, or
 * the string itself): one step per line, with the state it leads to.
 */
export function formatPath(path: AgentPath): string {
  const lines = path.steps.map((s) => `    ${JSON.stringify(s)}`);
  return `{\n  "name": ${JSON.stringify(path.name)},\n  "iterations": ${path.iterations},\n  "steps": [\n${lines.join(',\n')}\n  ]\n}`;
}
