import type { CompactionEntry, Entry } from '@tiller/core';
import { entryMessage } from '@tiller/core';

/**
 * What is wrong with what an appended compaction entry keeps, or null. `buildContext` keeps from
 * `firstKeptEntryId` up to the entry: an id not among the entries before it keeps nothing (the
 * model is sent the summary alone, the turn it is in included), and a first kept entry inside a
 * tool batch keeps a result whose call leaves (sent as a note, its call gone). Either would pass
 * without a word; `WindowManager` never makes them, a compactor of one's own may. The walk goes
 * back from the compaction (`entryAt(at)`) over what it keeps, and the batch before it: the path is
 * read through `entryAt` so that no copy of it is made.
 */
export function keptPartProblem(entryAt: (index: number) => Entry, at: number, named: string): string | null {
  const compaction = entryAt(at) as CompactionEntry;
  const firstKept = lastIndexOf(entryAt, compaction.firstKeptEntryId, at);
  if (firstKept < 0) {
    return `${named} keeps from "${compaction.firstKeptEntryId}", which is not an entry of the path before it: the model would see the summary alone`;
  }
  const keptResults = new Set<string>();
  for (let i = firstKept; i < at; i++) {
    const message = entryMessage(entryAt(i));
    if (message?.role === 'toolResult') keptResults.add(message.toolCallId);
  }
  if (keptResults.size === 0) return null;
  // The reply that made the batch the cut may stand in: the nearest assistant message before it, unless a user message comes first.
  for (let i = firstKept - 1; i >= 0; i--) {
    const message = entryMessage(entryAt(i));
    if (message?.role === 'user') return null;
    if (message?.role !== 'assistant') continue;
    const orphaned = message.content.find((part) => part.type === 'toolCall' && keptResults.has(part.id));
    if (!orphaned || orphaned.type !== 'toolCall') return null;
    return `${named} keeps from "${compaction.firstKeptEntryId}", inside a tool batch: the result of call "${orphaned.id}" (${orphaned.name}) would stay while its call (entry "${entryAt(i).id}") leaves the context; keep from that entry instead`;
  }
  return null;
}

function lastIndexOf(entryAt: (index: number) => Entry, id: string, end: number): number {
  for (let i = end - 1; i >= 0; i--) if (entryAt(i).id === id) return i;
  return -1;
}
