import { words } from './generated-text.js';
import { appendEntry, type SessionState } from './session-state.js';

/** Summarizes the older part of the path, keeping the last few cut points, as pi would. */
export function appendCompaction(state: SessionState): void {
  const { random } = state;
  const cutPoints = state.path.filter((p) => p.cutPoint);
  const kept = cutPoints[Math.max(0, cutPoints.length - 1 - random.int(2, 8))];
  if (!kept) return;
  const summary = [
    '## Goal',
    words(random, 20),
    '',
    '## Progress',
    `- [x] ${words(random, 8)}`,
    `- [ ] ${words(random, 6)}`,
    '',
    '## Key Decisions',
    `- ${words(random, 12)}`,
  ].join('\n');
  const tokensBefore = Math.ceil(state.contextChars / 4);
  const details = { readFiles: [...state.touched.read].sort(), modifiedFiles: [...state.touched.modified].sort() };
  if (state.options.format === 1) appendEntry(state, { type: 'compaction', summary, firstKeptEntryIndex: kept.ref, tokensBefore }, false);
  else appendEntry(state, { type: 'compaction', summary, firstKeptEntryId: kept.ref, tokensBefore, details }, false);
  // What the model sees now: the summary and the kept tail.
  state.contextChars = summary.length + Math.floor(state.contextChars * 0.3);
  state.counts.compactions += 1;
}
