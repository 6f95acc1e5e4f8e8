import type { Entry } from '@tiller/core';
import { entryRole, isCutPoint } from './entry-roles.js';
import { estimateTokens } from './estimate-tokens.js';
import type { TokenCounter } from './token-counter.js';

export interface CutPoint {
  /** First entry that stays in the context (`startIndex` when nothing leaves). */
  firstKeptIndex: number;
  /** The user message that opens the turn the cut splits; -1 when the cut is at a turn's start. */
  turnStartIndex: number;
  isSplitTurn: boolean;
  /** False when the newest entries never add up to `keepRecentTokens`: nothing would leave. */
  reached: boolean;
}

/**
 * Where to cut `path[startIndex, endIndex)` so that about `keepRecentTokens` of the newest context
 * stays. Walks back from the newest entry adding estimates until the budget is met, then cuts at
 * the nearest user or assistant message at or after that point: never at a tool result, so a call
 * keeps its result. When everything from that point on is tool results (one huge trailing result),
 * it cuts at the assistant message that made the calls instead, so older history still leaves (pi
 * keeps everything there, pi issue #7201). Entries outside the context just before the cut (model
 * changes, labels) stay with it. One backward pass: O(entries walked).
 */
export function findCutPoint(
  path: readonly Entry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
  counter?: TokenCounter,
): CutPoint {
  let accumulated = 0;
  let nearestCut = -1;
  let cut = -1;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const role = entryRole(path[i]!);
    if (role.kind === 'none') continue;
    if (role.kind !== 'toolResult') nearestCut = i;
    accumulated += estimateTokens(role.message, counter);
    if (accumulated < keepRecentTokens) continue;
    cut = nearestCut >= 0 ? nearestCut : previousCutPoint(path, i - 1, startIndex);
    break;
  }
  if (cut < 0) return { firstKeptIndex: startIndex, turnStartIndex: -1, isSplitTurn: false, reached: false };

  let firstKeptIndex = cut;
  while (firstKeptIndex > startIndex) {
    const previous = path[firstKeptIndex - 1]!;
    if (previous.kind === 'compaction' || entryRole(previous).kind !== 'none') break;
    firstKeptIndex--;
  }

  // The cut entry itself says whether a turn is split, not the settings entries kept with it.
  const turnStartIndex = entryRole(path[cut]!).kind === 'turnStart' ? -1 : findTurnStartIndex(path, cut - 1, startIndex);
  return { firstKeptIndex, turnStartIndex, isSplitTurn: turnStartIndex >= 0, reached: true };
}

function previousCutPoint(path: readonly Entry[], from: number, startIndex: number): number {
  for (let i = from; i >= startIndex; i--) if (isCutPoint(path[i]!)) return i;
  return -1;
}

/** The entry that opens the turn holding `path[index]`, searching back to `startIndex`; -1 if none. */
export function findTurnStartIndex(path: readonly Entry[], index: number, startIndex: number): number {
  for (let i = index; i >= startIndex; i--) if (entryRole(path[i]!).kind === 'turnStart') return i;
  return -1;
}
