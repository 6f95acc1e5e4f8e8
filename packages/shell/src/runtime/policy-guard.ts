import { type CompactionPolicy, CompactionPolicyViolation } from '@tiller/compaction';
import { countTurns, type Entry, type TillerModel } from '@tiller/core';
import { AgentOptionsError } from '../errors/agent-options-error.js';
import { CompactionPolicyViolatedError } from '../errors/compaction-policy-violated-error.js';
import { describeThrown } from '../describe-thrown.js';

/** A compaction policy bound to the agent's model, counting the session's turns. */
export interface PolicyGuard {
  /** Before a turn starts: throws `CompactionPolicyViolatedError` when the policy allows no more turns. */
  admitTurn(): void;
  /** The turn stands on another path (the log moved between turns): its turns are counted again. */
  rebase(path: readonly Entry[]): void;
  /** At every boundary: throws `CompactionPolicyViolatedError` when the context broke the policy's premise. */
  observe(contextTokens: number): void;
}

/**
 * Binds the policy to the model (a policy that cannot hold for it is an options error) and counts
 * the turns already in the session, as the core says where each starts.
 */
export function guardPolicy(policy: CompactionPolicy | undefined, model: TillerModel, path: readonly Entry[], entryPoint: string): PolicyGuard | undefined {
  if (!policy) return undefined;
  let contextWindow: number;
  try {
    contextWindow = policy.bindTo(model.contextWindow === undefined ? model.id : { id: model.id, contextWindow: model.contextWindow }).contextWindow;
  } catch (error) {
    throw new AgentOptionsError(`${entryPoint}: compactionPolicy does not hold for model "${model.id}": ${describeThrown(error)}`);
  }
  let turns = countTurns(path);
  return {
    admitTurn() {
      asShellError(() => policy.admitTurn(turns + 1));
      turns += 1;
    },
    rebase(next) {
      turns = countTurns(next);
    },
    observe(contextTokens) {
      asShellError(() => policy.observeContext({ turnsUsed: turns, contextTokens, contextWindow }));
    },
  };
}

function asShellError(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!CompactionPolicyViolation.isInstance(error)) throw error;
    throw new CompactionPolicyViolatedError(`the compaction policy was broken: ${error.message}`, error.facts, { cause: error });
  }
}
