import type { Entry } from '@tiller/core';
import { expect } from 'vitest';
import { type CompactionPreparation, type CompactionSettings, prepareCompaction } from '../src/index.js';
import { pi, type PiEntry, type PiMessage, type PiPreparation } from './pi.js';

/** pi's and Tiller's preparation of the same session, in Tiller's ids. */
export interface PreparedPair {
  tiller: CompactionPreparation | null;
  pi: PiPreparation | undefined;
  /** Tiller id of each entry pi summarizes as history, then of those it summarizes as the turn prefix. */
  piHistoryIds: string[];
  piPrefixIds: string[];
  piFirstKeptId: string | undefined;
}

/**
 * Runs both preparations. The paths are the same session as each side loads it, entry for entry
 * (`idOf` maps pi's ids to Tiller's, for files whose ids pi invents when it migrates them).
 */
export function preparePair(piPath: PiEntry[], tillerPath: Entry[], settings: CompactionSettings): PreparedPair {
  expect(tillerPath).toHaveLength(piPath.length);
  const tillerIdOfPiId = new Map(piPath.map((entry, i) => [entry.id, tillerPath[i]!.id]));
  // pi hands the entries' own message objects to the summary: find them by identity.
  const tillerIdOfMessage = new Map<PiMessage, string>();
  piPath.forEach((entry, i) => {
    if (entry.type === 'message') tillerIdOfMessage.set(entry.message, tillerPath[i]!.id);
  });
  // A branch summary is a message pi makes from its entry each time: find that entry by its summary.
  const tillerIdOfBranchSummary = new Map<string, string>();
  piPath.forEach((entry, i) => {
    if (entry.type === 'branch_summary') tillerIdOfBranchSummary.set(entry.summary, tillerPath[i]!.id);
  });
  const piPreparation = pi.prepareCompaction(piPath, settings);
  const idsOf = (messages: PiMessage[] | undefined) =>
    (messages ?? []).map((m) => {
      const id = tillerIdOfMessage.get(m) ?? (m.role === 'branchSummary' ? tillerIdOfBranchSummary.get(m.summary) : undefined);
      if (id === undefined) throw new Error(`pi summarized a message that is not an entry's own: ${JSON.stringify(m).slice(0, 120)}`);
      return id;
    });
  return {
    tiller: prepareCompaction(tillerPath, settings),
    pi: piPreparation,
    piHistoryIds: idsOf(piPreparation?.messagesToSummarize),
    piPrefixIds: idsOf(piPreparation?.isSplitTurn ? piPreparation.turnPrefixMessages : []),
    piFirstKeptId: piPreparation ? tillerIdOfPiId.get(piPreparation.firstKeptEntryId) : undefined,
  };
}

export const tillerHistoryIds = (preparation: CompactionPreparation) =>
  preparation.compactedEntries.slice(0, preparation.messagesToSummarize.length).map((e) => e.id);
export const tillerPrefixIds = (preparation: CompactionPreparation) =>
  preparation.compactedEntries.slice(preparation.messagesToSummarize.length).map((e) => e.id);
