import type { EmitEffect } from '@tiller/core';
import type { EffectContext } from './effect-context.js';

/**
 * `emit`: the core's progress goes to subscribers. The end of a turn first settles who waits for
 * it and lets the session log go, so a listener that hears it may start the next turn at once.
 */
export async function emit(effect: EmitEffect, shell: EffectContext): Promise<void> {
  if (effect.event.type === 'turn.ended') shell.turnEnded(effect.event.outcome);
  shell.publish(effect.event);
}
