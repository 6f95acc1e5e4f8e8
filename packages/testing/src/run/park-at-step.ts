import type { PathStep } from '../path-step.js';
import type { RunContext } from './run-context.js';

/** Waits until the agent waits where `step` applies: the world holds the work of the effect the turn is on. */
export async function parkAt(run: RunContext, step: PathStep): Promise<void> {
  if (step.do === 'policy_asks') return;
  const { world, mirror } = run;
  const pending = mirror.snapshot?.context.turn?.pending?.type;
  const answered = mirror.inputCount;
  switch (pending) {
    case undefined:
      return run.waitUntil(() => run.agent.snapshot.context.turn === null, 'the turn to end');
    case 'maybe_compact':
      return run.waitUntil(() => world.holding.compaction(), 'the compactor to be asked');
    case 'call_llm':
      return run.waitUntil(() => world.holding.model(), 'the model to be called');
    case 'run_tools': {
      const ran = world.runs.length;
      // A call the world holds, one that hangs (a timeout), or a batch that answered on its own.
      await run.waitUntil(() => world.holding.tools() || world.runs.length > ran || run.inputs() > answered, 'the tools to run');
      // Before a crash, let what the tools do for real finish: the crash comes after their effect.
      if (step.do === 'crash') await run.waitUntil(() => world.runs.every((r) => r.settled || r.generation !== world.generation), 'the running tools to finish');
      return;
    }
    case 'request_approval':
      return run.waitUntil(() => run.agent.pendingApprovals().length > 0, 'the approval request');
    default: {
      const unknown: never = pending;
      throw new TypeError(`unknown pending effect ${String(unknown)}`);
    }
  }
}
