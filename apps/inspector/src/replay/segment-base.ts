import type { Entry } from '@tiller/core';
import type { JournalSegment } from '../journal/read-journal.js';
import type { ParsedSession } from '../journal/read-session.js';
import type { SegmentReplay } from './replay-segment.js';

/**
 * The session path a segment started from: walked back from its `baseLeafId` through the
 * session file's entries, and through what earlier segments of the same journal appended (so a
 * journal alone, or a live one whose session file came later, still replays a run that went on
 * from an earlier run's entries). Empty when the entry is nowhere: the replay then says so.
 */
export function segmentBase(segment: JournalSegment, session: ParsedSession | undefined, earlier: readonly SegmentReplay[]): Entry[] {
  const byId = new Map<string, Entry>(session?.byId ?? []);
  for (const replay of earlier) {
    for (const entry of (replay.steps.at(-1)?.snapshot ?? replay.initial).context.entries) if (!byId.has(entry.id)) byId.set(entry.id, entry);
  }
  const path: Entry[] = [];
  // The session file's entries and what earlier runs appended are read apart: an id in both can
  // close a loop between them, so a walk that meets an entry again stops, as one that meets an
  // unknown id.
  const seen = new Set<string>();
  for (let id = segment.header.baseLeafId; id !== null; ) {
    const entry = byId.get(id);
    if (!entry || seen.has(id)) return [];
    seen.add(id);
    path.push(entry);
    id = entry.parentId;
  }
  return path.reverse();
}
