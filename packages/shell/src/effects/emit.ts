import type { EmitEffect } from '@tiller/core';
import type { EffectContext } from './effect-context.js';

/** `emit`: the core's progress goes to subscribers; the end of a turn also settles who waits for it. */
export async function emit(effect: EmitEffect, shell: EffectContext): Promise<void> {
  shell.publish(effect.event);
  if (effect.event.type === 'turn.ended') shell.turnEnded(effect.event.outcome);
}
