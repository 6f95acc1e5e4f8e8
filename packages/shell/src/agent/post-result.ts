import type { Effect, IgnoredNote } from '@tiller/core';

/**
 * Where a steer or follow-up went: to the running turn, which takes it at a boundary (or drops it
 * with an `event.ignored` note if the turn ends first), or nowhere, because no turn was running
 * when it was applied; then `note` holds the message, for the host to send again with its next prompt.
 */
export type PostResult = { delivered: 'turn' } | { delivered: 'dropped'; note: IgnoredNote };

/** The step of a steer or follow-up is its own: an `event.ignored` among its effects is about it. */
export function postResultOf(effects: readonly Effect[]): PostResult {
  for (const effect of effects) {
    if (effect.type === 'emit' && effect.event.type === 'event.ignored') return { delivered: 'dropped', note: effect.event.note };
  }
  return { delivered: 'turn' };
}
