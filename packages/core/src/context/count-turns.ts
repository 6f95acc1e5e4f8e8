import type { Entry } from '../schema/entry.js';

/**
 * How many turns a path holds: its user messages, except the steers and follow-ups the core
 * delivered inside a turn. A user message from an import or a host (no `origin`) starts a turn.
 */
export function countTurns(entries: Iterable<Entry>): number {
  let turns = 0;
  for (const entry of entries) {
    if (entry.kind === 'message' && entry.message.role === 'user' && (entry.origin === undefined || entry.origin === 'prompt')) turns += 1;
  }
  return turns;
}
