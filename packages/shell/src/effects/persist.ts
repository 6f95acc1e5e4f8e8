import type { PersistEffect } from '@tiller/core';
import { withinWriteLimit } from '../runtime/write-limit.js';
import type { EffectContext } from './effect-context.js';

/** `persist`: the entries reach the session log before the step's blocking effect starts. */
export async function persist(effect: PersistEffect, shell: EffectContext): Promise<void> {
  await withinWriteLimit(shell.session.append(effect.entries), shell.options.limits.writeTimeoutMs, "the session store's append");
}
