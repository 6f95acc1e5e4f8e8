import { abortable } from './abortable.js';
import type { CompactionHooks, CompactionMeta } from './compactor.js';
import { describeThrown } from './describe-thrown.js';

/** Tells the `afterCompact` hooks of a compaction, at most once; resolves with a line for each hook that failed. */
export type HookTeller = (signal?: AbortSignal) => Promise<string[]>;

/** The teller of a run that told nothing: no hook hears of it. */
export const tellNoHook: HookTeller = async () => [];

/**
 * The teller of the hooks of `meta`, a compaction that happened. A hook's throw (a metrics endpoint
 * down) is said in a line and the hooks after it still run: nothing here undoes the compaction.
 * Once `signal` aborts (a time limit, the turn's abort) nothing waits on the hook running: it is
 * left to finish on its own, the hooks after it are not run, and a line says so with the signal's
 * reason. A second call tells nothing again. Never throws.
 */
export function hookTeller(hooks: CompactionHooks | undefined, meta: Extract<CompactionMeta, { compacted: true }>): HookTeller {
  const list = hooks?.afterCompact ?? [];
  if (list.length === 0) return tellNoHook;
  let told = false;
  return async (signal) => {
    if (told) return [];
    told = true;
    const failures: string[] = [];
    for (const [i, hook] of list.entries()) {
      const later = list.length - i - 1;
      const after = later === 0 ? '' : ` the ${later === 1 ? 'hook' : `${later} hooks`} after it`;
      if (signal?.aborted) {
        const which = after ? `afterCompact[${i}] and${after} were` : `afterCompact[${i}] was`;
        failures.push(`${which} not run: ${describeThrown(signal.reason)}; the compaction stands`);
        break;
      }
      try {
        await abortable(() => hook(meta), signal);
      } catch (error) {
        if (signal?.aborted && error === signal.reason) {
          failures.push(`afterCompact[${i}] was left running${after ? `, and${after} not run` : ''}: ${describeThrown(error)}; the compaction stands`);
          break;
        }
        failures.push(`afterCompact[${i}] threw: ${describeThrown(error)}; the compaction stands`);
      }
    }
    return failures;
  };
}
