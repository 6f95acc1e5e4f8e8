import type { TurnOutcome } from '@tiller/core';
import { plannedCallId, type AgentPath, type PathStep } from '../path-step.js';
import { Deviation, type RunContext } from './run-context.js';
import { outcomeAfter } from './step-inputs.js';
import type { ModelAttempt } from './world.js';

/** What acting on a step needs beyond the context: the path, where outcomes and failures go, and how the process crashes. */
export interface ActingRun extends RunContext {
  readonly path: AgentPath;
  readonly outcomes: TurnOutcome[];
  readonly deviations: string[];
  crash(): Promise<void>;
}

/** Does what step `index` says, once the agent waits for it: a host call, the model's answer, the tools' outcome, a decision, a crash. */
export async function actOn(run: ActingRun, step: PathStep, index: number): Promise<void> {
  const { agent, world } = run;
  switch (step.do) {
    case 'prompt': {
      const turn = agent.prompt(`prompt ${index + 1}`);
      turn.then(
        (o) => run.outcomes.push(o),
        (e: unknown) => run.deviations.push(`prompt() at step ${index + 1} failed: ${(e as Error).message}`),
      );
      return;
    }
    case 'steer':
      await agent.steer(`steer at step ${index + 1}`);
      return;
    case 'follow_up':
      await agent.followUp(`follow-up at step ${index + 1}`);
      return;
    case 'abort':
      return agent.abort('aborted by the host');
    case 'boundary':
      if (!world.releaseCompaction()) throw new Deviation('nothing waits at the boundary');
      return;
    case 'reply': {
      const calls = step.calls.map((c, j) => ({ ...c, id: plannedCallId(index, j) }));
      world.planCalls(
        calls.map((c) => c.id),
        outcomeAfter(run.path, index),
      );
      const attempts: ModelAttempt[] = [...step.retried.map((error) => ({ kind: 'fail' as const, error })), { kind: 'reply', reply: step.reply, calls }];
      if (!world.answerModel(attempts)) throw new Deviation('no model call waits for the reply');
      return;
    }
    case 'fail': {
      const attempts: ModelAttempt[] =
        step.error === 'transient' ? Array.from({ length: world.attemptsBeforeGivingUp }, () => ({ kind: 'fail', error: 'transient' })) : [{ kind: 'fail', error: step.error }];
      if (!world.answerModel(attempts)) throw new Deviation('no model call waits for the failure');
      return;
    }
    case 'policy_asks':
      return;
    case 'tools':
      world.releaseTools();
      return;
    case 'approve': {
      if (step.decision === 'timeout') return;
      const calls = agent.pendingApprovals();
      agent.approve(calls.map((c) => (step.decision === 'allow' ? { toolCallId: c.id, decision: 'allow' as const } : { toolCallId: c.id, decision: 'deny' as const, rationale: 'The user said no.' })));
      return;
    }
    case 'crash':
      return run.crash();
    default: {
      const unknown: never = step;
      throw new TypeError(`unknown step ${JSON.stringify(unknown)}`);
    }
  }
}
