import type { Entry, Message } from '@tiller/core';
import { entryMessage } from '@tiller/core';

/**
 * How compaction sees an entry: whether it is in the model's context, whether it belongs to a tool
 * batch, whether it opens a turn. One place, so cut points, split turns and strategies agree (where
 * a cut may land depends on the entries around it too: `findCutPoint`).
 */
export type EntryRole =
  | { kind: 'none' } // not in the context: labels, model changes, compactions themselves
  | { kind: 'turnStart'; message: Message } // user messages, injected host messages, branch summaries; inside a batch, no cut
  | { kind: 'step'; message: Message } // assistant messages: a cut may land here, inside a turn
  | { kind: 'toolResult'; message: Message }; // never cut here: a result stays with its call

const NONE: EntryRole = { kind: 'none' };

export function entryRole(entry: Entry): EntryRole {
  if (entry.kind === 'compaction') return NONE;
  const message = entryMessage(entry);
  if (!message) return NONE;
  if (entry.kind !== 'message') return { kind: 'turnStart', message };
  switch (message.role) {
    case 'user':
      return { kind: 'turnStart', message };
    case 'assistant':
      return { kind: 'step', message };
    case 'toolResult':
      return { kind: 'toolResult', message };
    default: {
      const unknownMessage: never = message;
      throw new TypeError(`unknown message role ${JSON.stringify(unknownMessage)}`);
    }
  }
}
