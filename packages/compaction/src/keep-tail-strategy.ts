import type { Entry } from '@tiller/core';
import { currentContext, type Strategy } from './compaction-strategy.js';
import { entryRole } from './entry-roles.js';
import { createFileTracker, DEFAULT_FILE_TOOLS } from './file-operations.js';
import { findCutPoint } from './find-cut-point.js';
import { carriedClearing, carriedStripThinking } from './prepare-compaction.js';

/** The oldest whole turns leave the context, with no summary in their place. */
export const keepTail: Strategy = async (path, ctx, config) => {
  const { start, previous, previousIndex } = currentContext(path);
  const cut = findCutPoint(path, start, path.length, config.keepRecentTokens, config.counter);
  if (!cut.reached) return null;
  // Keep the whole turn the cut falls in; inside the turn only when that turn is all there is.
  const firstKeptIndex = cut.isSplitTurn && hasContextBetween(path, start, cut.turnStartIndex) ? cut.turnStartIndex : cut.firstKeptIndex;
  const dropped = contextEntries(path, start, firstKeptIndex);
  if (dropped.length === 0) return null;
  const tracker = createFileTracker(config.fileTools ?? DEFAULT_FILE_TOOLS);
  tracker.carry(previous?.details);
  for (const entry of dropped) {
    const role = entryRole(entry);
    if (role.kind !== 'none') tracker.add(role.message);
  }
  return {
    summary: '',
    firstKeptIndex,
    stripThinking: ctx.midRound || carriedStripThinking(previous, previousIndex, firstKeptIndex),
    dropped,
    cleared: carriedClearing(path, previous, previousIndex, firstKeptIndex),
    details: tracker.lists(),
  };
};

function contextEntries(path: readonly Entry[], from: number, to: number): Entry[] {
  const out: Entry[] = [];
  for (let i = from; i < to; i++) if (entryRole(path[i]!).kind !== 'none') out.push(path[i]!);
  return out;
}

function hasContextBetween(path: readonly Entry[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (entryRole(path[i]!).kind !== 'none') return true;
  return false;
}
