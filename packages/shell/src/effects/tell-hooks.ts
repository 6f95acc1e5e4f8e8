import type { HookTeller } from '@tiller/compaction';
import { now } from '../clock.js';
import { workSignal } from '../runtime/work-signal.js';
import type { CompactionWork } from './compact-at-boundary.js';

// The hooks are never handed the signal: no listener of theirs can fail on it.
const noListeners = () => {};
/** What stops the hooks in the shell: nothing but their own limit (a close waits for them). */
const nothingStops = new AbortController().signal;

/**
 * Tells a compaction's `afterCompact` hooks, once its entries are written, within a time limit of
 * their own (`limits.compactionTimeoutMs` again, counted from now): the compactor's limit does not
 * cover them, so a slow hook cannot cancel a compaction that is done. Past it, or once `stop`
 * aborts (in a durable step, the turn's abort; the agent gives none), the hook running is left
 * behind and those after it are not told. Each hook that threw or was left behind is a `shell.error`
 * (`where: 'afterCompact hook'`); it never throws.
 */
export async function tellHooks(tell: HookTeller, work: Pick<CompactionWork, 'timeoutMs' | 'publish'>, stop: AbortSignal = nothingStops): Promise<void> {
  const message = `the afterCompact hooks did not finish within ${work.timeoutMs} ms (limits.compactionTimeoutMs)`;
  const lent = workSignal(stop, noListeners, { ms: work.timeoutMs, message });
  try {
    for (const failure of await tell(lent.signal)) work.publish({ type: 'shell.error', where: 'afterCompact hook', message: failure, at: now() });
  } finally {
    lent.end();
  }
}
