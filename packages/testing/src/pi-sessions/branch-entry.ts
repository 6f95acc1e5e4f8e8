import { words } from './generated-text.js';
import { appendEntry, type SessionState } from './session-state.js';

/** Format 3: goes back to an earlier user message and starts again from there with a summary. */
export function appendBranch(state: SessionState): void {
  const users = state.path.filter((p) => p.user);
  if (users.length < 2) return;
  const from = users[state.random.int(0, users.length - 2)]!;
  state.path = state.path.slice(0, state.path.indexOf(from) + 1);
  appendEntry(
    state,
    {
      type: 'branch_summary',
      fromId: from.ref,
      summary: `The abandoned branch tried: ${words(state.random, 16)}`,
      details: { readFiles: [...state.touched.read].sort().slice(0, 2), modifiedFiles: [] },
    },
    false,
    from.ref as string,
  );
  state.contextChars = Math.floor(state.contextChars * 0.6);
  state.counts.branchSummaries += 1;
}
