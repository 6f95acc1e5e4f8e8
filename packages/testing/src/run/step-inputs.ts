import type { AgentPath, PathStep, ToolOutcomeKind } from '../path-step.js';

/** The input each step of a path feeds the turn; a crash feeds none. */
export const INPUT_OF: Record<PathStep['do'], string | null> = {
  prompt: 'turn.start',
  steer: 'steer',
  follow_up: 'follow_up',
  abort: 'abort',
  boundary: 'compaction.done',
  reply: 'llm.done',
  fail: 'llm.failed',
  policy_asks: 'approval.needed',
  tools: 'tools.done',
  approve: 'approval.decided',
  crash: null,
};

/** The outcome of the tools step that answers the reply at `index`, if the path gets there. */
export function outcomeAfter(path: AgentPath, index: number): ToolOutcomeKind {
  for (const { step } of path.steps.slice(index + 1)) {
    if (step.do === 'tools') return step.outcome;
    if (step.do === 'reply' || step.do === 'prompt' || step.do === 'fail') break;
  }
  return 'ok';
}
