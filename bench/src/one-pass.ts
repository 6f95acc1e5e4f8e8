import type { Entry } from '@tiller/core';

/** How a row names one pass over the entries when it is timed beside an operation, as its reference. */
export const ONE_PASS = 'one pass over the entries';

/**
 * The least any operation over the whole session does: look at each entry once (its kind, and its
 * message's role). Its growth from one size to the next is the floor the linear goal is judged by.
 */
export function onePass(entries: readonly Entry[]): number {
  let messages = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.kind === 'message' && entry.message.role !== 'toolResult') messages++;
  }
  return messages;
}
