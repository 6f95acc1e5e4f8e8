import type { Effect } from '@tiller/core';
import { callModel } from '../effects/call-model.js';
import { compact } from '../effects/compact.js';
import type { EffectAnswer, EffectContext } from '../effects/effect-context.js';
import { emit } from '../effects/emit.js';
import { persist } from '../effects/persist.js';
import { requestApproval } from '../effects/request-approval.js';
import { runTools } from '../effects/run-tools.js';

/** Starts the work of a blocking effect in the background; its answer comes back to the mailbox under `id`. */
export type Launch = (id: string, where: string, work: (signal: AbortSignal) => Promise<EffectAnswer>) => void;

/**
 * The one interpreter: hands each effect to its handler. `persist` is done when this returns (the
 * next effect may depend on it); a blocking effect's work is launched and answers later. An
 * effect without a handler is a type error.
 */
export async function interpret(effect: Effect, shell: EffectContext, launch: Launch): Promise<void> {
  switch (effect.type) {
    case 'persist':
      return persist(effect, shell);
    case 'emit':
      return emit(effect, shell);
    case 'maybe_compact':
      return launch(effect.id, 'compacting', (signal) => compact(effect, shell, signal));
    case 'call_llm':
      return launch(effect.id, 'calling the model', async (signal) => ({ input: await callModel(effect, shell, signal) }));
    case 'run_tools':
      return launch(effect.id, 'running tools', async (signal) => ({ input: await runTools(effect, shell, signal) }));
    case 'request_approval':
      return requestApproval(effect, shell);
    default: {
      const unknown: never = effect;
      throw new TypeError(`the shell cannot carry out effect ${JSON.stringify(unknown)}`);
    }
  }
}
