import type { Entry } from '@tiller/core';
import { entryRole } from './entry-roles.js';
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
 * the nearest user or assistant message at or after that point. A cut never falls inside a tool
 * batch (after an assistant's calls, before the last of their results): not at a tool result, and
 * not at a message the host put between a call and its result, so a call always keeps its result.
 * When everything from that point on is inside a batch (one huge trailing result), it cuts at the
 * assistant message that made the calls instead, so older history still leaves (pi keeps
 * everything there, pi issue #7201). Entries outside the context just before the cut (model
 * changes, labels) stay with it. One backward pass: O(entries walked).
 */
export function findCutPoint(
  path: readonly Entry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
  counter?: TokenCounter,
): CutPoint {
  const batch = batchTracker();
  let accumulated = 0;
  let budgetMet = false;
  let nearestCut = -1;
  let cut = -1;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const role = entryRole(path[i]!);
    if (role.kind === 'none') continue;
    const cutHere = batch.step(role.kind);
    if (budgetMet) {
      if (!cutHere) continue;
      cut = i;
      break;
    }
    if (cutHere) nearestCut = i;
    accumulated += estimateTokens(role.message, counter);
    if (accumulated < keepRecentTokens) continue;
    if (nearestCut >= 0) {
      cut = nearestCut;
      break;
    }
    budgetMet = true; // only batch entries from here on: keep walking back to the call that opened it
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

/**
 * The turn start that opens the turn holding `path[index]`, searching back to `startIndex`; -1 if
 * none. `path[index + 1]` must not be inside a batch (it is a cut). A host message inside a batch
 * opens no turn: the turn's prefix would begin between a call and its result.
 */
export function findTurnStartIndex(path: readonly Entry[], index: number, startIndex: number): number {
  const batch = batchTracker();
  for (let i = index; i >= startIndex; i--) {
    const { kind } = entryRole(path[i]!);
    if (kind === 'none') continue;
    if (batch.step(kind) && kind === 'turnStart') return i;
  }
  return -1;
}

/**
 * Walking a path backwards, whether each context entry may be cut at: a tool result opens a batch
 * (seen from its end) and the assistant message before it, which made the calls, closes it. That
 * assistant message may be cut at (it keeps its calls and their results); a turn start inside
 * the batch may not.
 */
function batchTracker() {
  let inBatch = false;
  return {
    step(kind: 'turnStart' | 'step' | 'toolResult'): boolean {
      switch (kind) {
        case 'toolResult':
          inBatch = true;
          return false;
        case 'step':
          inBatch = false;
          return true;
        case 'turnStart':
          return !inBatch;
        default: {
          const unknownKind: never = kind;
          throw new TypeError(`unknown entry role ${String(unknownKind)}`);
        }
      }
    },
  };
}
