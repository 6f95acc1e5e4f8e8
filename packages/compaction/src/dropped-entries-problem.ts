import type { Entry } from '@tiller/core';

/**
 * What is wrong with the entries a compaction says it dropped, or null. `meta.dropped` and the
 * appended compaction entries' `compactedEntryIds` name the same entries (those that left the
 * context with this compaction), in the same order, the lists of several entries one after
 * another: `WindowManager` builds both from one list. Had they disagreed, the journal, the
 * `compaction.finished` event and the `afterCompact` hooks would tell of other entries than the
 * log records (or, with nothing said dropped, no hook would run at all). Costs what the lists hold.
 */
export function droppedEntriesProblem(dropped: readonly Entry[], appended: readonly Entry[]): string | null {
  const listed: Array<{ id: string; by: string }> = [];
  for (const [i, entry] of appended.entries()) {
    if (entry.kind !== 'compaction') continue;
    for (const id of entry.compactedEntryIds ?? []) listed.push({ id, by: `appended[${i}] (id "${entry.id}")` });
  }
  const agreement = 'both name the entries that left the context, in the same order';
  if (dropped.length !== listed.length) {
    return `meta.dropped lists ${count(dropped.length)} (${quoted(dropped.map((e) => e.id))}), but the compaction entries it appended list ${listed.length} in compactedEntryIds (${quoted(listed.map((l) => l.id))}): ${agreement}`;
  }
  for (const [i, entry] of dropped.entries()) {
    const { id, by } = listed[i]!;
    if (entry.id !== id) return `meta.dropped[${i}] is "${entry.id}", but ${by} lists "${id}" there in compactedEntryIds: ${agreement}`;
  }
  return null;
}

const count = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;

/** A few ids as a message shows them; a long list is cut, its length is said beside it. */
function quoted(ids: readonly string[]): string {
  if (ids.length === 0) return 'none';
  const shown = ids.slice(0, 3).map((id) => JSON.stringify(id));
  return ids.length > 3 ? `${shown.join(', ')}, …` : shown.join(', ');
}
