import type { PersistEffect } from '@tiller/core';
import type { EffectContext } from './effect-context.js';

/** `persist`: the entries reach the session log before the step's blocking effect starts. */
export async function persist(effect: PersistEffect, shell: EffectContext): Promise<void> {
  await shell.session.append(effect.entries);
}
