import type { Entry } from '@tiller/core';
import { importPiSession } from '@tiller/session';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IMAGE_TOKENS } from '../src/estimate-tokens.js';
import { compactionSettings, estimatePathContextTokens, estimateTokens } from '../src/index.js';
import { preparePair, tillerHistoryIds, tillerPrefixIds } from './agreement.js';
import { pi, type PiEntry } from './pi.js';
import { CJK_SAMPLE, sessionArb } from './pi-sessions.js';

const RUNS = 150;
/** Each property below runs pi and Tiller over hundreds of sessions: on two busy cores that takes a while. */
const PROPERTY_TIMEOUT = 120_000;

function load(text: string): { piPath: PiEntry[]; tillerPath: Entry[] } {
  const piPath = pi.loadPath(text);
  const tillerPath = importPiSession(text).entries;
  // Format 3 keeps pi's ids: both sides name every entry alike.
  expect(tillerPath.map((e) => e.id)).toEqual(piPath.map((e) => e.id));
  return { piPath, tillerPath };
}

/** Where pi's walk back from the newest entry meets the budget, and whether only tool results follow. */
function piBudgetLine(piPath: PiEntry[], keep: number) {
  let previous = -1;
  for (let i = piPath.length - 1; i >= 0; i--) if (piPath[i]!.type === 'compaction') { previous = i; break; }
  let start = 0;
  if (previous >= 0) {
    const kept = piPath.findIndex((e) => e.id === (piPath[previous] as { firstKeptEntryId: string }).firstKeptEntryId);
    start = kept >= 0 ? kept : previous + 1;
  }
  let accumulated = 0;
  for (let i = piPath.length - 1; i >= start; i--) {
    const entry = piPath[i]!;
    if (entry.type !== 'message') continue;
    accumulated += pi.estimateTokens(entry.message);
    if (accumulated >= keep) {
      const onlyToolResults = piPath.slice(i).every((e) => e.type !== 'message' || e.message.role === 'toolResult');
      return { start, reachedAt: i, onlyToolResults };
    }
  }
  return { start, reachedAt: -1, onlyToolResults: false };
}

function checkAgreement(text: string, keepRecentTokens: number) {
  const { piPath, tillerPath } = load(text);
  const settings = compactionSettings({ keepRecentTokens });
  const pair = preparePair(piPath, tillerPath, settings);
  if (piPath.at(-1)?.type === 'compaction') {
    // Nothing new since the last compaction: neither side prepares one.
    expect(pair.pi).toBeUndefined();
    expect(pair.tiller).toBeNull();
    return 'just-compacted';
  }
  const line = piBudgetLine(piPath, keepRecentTokens);
  const piSummarized = [...pair.piHistoryIds, ...pair.piPrefixIds];
  const contextIdsBefore = (end: number) =>
    tillerPath.slice(line.start, end).filter((e) => e.kind === 'message').map((e) => e.id);

  if (line.reachedAt >= 0 && line.onlyToolResults) {
    // pi #7201: pi keeps everything; Tiller cuts at the assistant whose calls produced the results.
    expect(piSummarized).toEqual([]);
    let cut = line.reachedAt;
    while (cut >= line.start && !(tillerPath[cut]!.kind === 'message' && (tillerPath[cut] as { message: { role: string } }).message.role !== 'toolResult')) cut--;
    const expected = cut > line.start ? contextIdsBefore(cut) : [];
    if (expected.length === 0) {
      expect(pair.tiller).toBeNull();
      return 'trailing-results-nothing-older';
    }
    expect(pair.tiller!.compactedEntries.map((e) => e.id)).toEqual(expected);
    return 'trailing-results';
  }
  if (piSummarized.length === 0) {
    // pi would summarize an empty history; Tiller reports that nothing would leave.
    expect(pair.tiller).toBeNull();
    return 'nothing';
  }
  const tiller = pair.tiller!;
  expect(tiller).not.toBeNull();
  expect(tiller.firstKeptEntryId).toBe(pair.piFirstKeptId);
  expect([...tillerHistoryIds(tiller), ...tillerPrefixIds(tiller)]).toEqual(piSummarized);
  expect(tiller.fileLists).toEqual(pi.computeFileLists(pair.pi!.fileOps));
  expect(tiller.previousSummary).toBe(pair.pi!.previousSummary);

  const piFirstKept = piPath.find((e) => e.id === pair.pi!.firstKeptEntryId)!;
  const cutMessage = piPath.slice(piPath.indexOf(piFirstKept)).find((e) => e.type === 'message');
  const settingsBeforeUser = piFirstKept.type !== 'message' && cutMessage?.type === 'message' && cutMessage.message.role === 'user';
  let outcome: string;
  if (settingsBeforeUser && pair.pi!.isSplitTurn) {
    // pi calls a cut at a user message a split turn when settings entries precede it; the turn is whole.
    expect(tiller.isSplitTurn).toBe(false);
    expect(tillerHistoryIds(tiller)).toEqual(piSummarized);
    outcome = 'settings-before-user';
  } else {
    expect(tiller.isSplitTurn).toBe(pair.pi!.isSplitTurn && pair.piPrefixIds.length > 0);
    expect(tillerHistoryIds(tiller)).toEqual(pair.piHistoryIds);
    expect(tillerPrefixIds(tiller)).toEqual(pair.piPrefixIds);
    outcome = tiller.isSplitTurn ? 'split' : 'whole';
  }

  // The estimate before agrees whenever it rests on a usage reported after the latest compaction
  // (Tiller ignores usage from before it, and counts the summary's wrapper text).
  const estimate = estimatePathContextTokens(tillerPath);
  if (estimate.anchored || !piPath.some((e) => e.type === 'compaction')) expect(tiller.tokensBefore).toBe(pair.pi!.tokensBefore);
  return outcome;
}

describe('against pi 0.73.1 on generated sessions', () => {
  for (const compaction of [false, true]) {
    const when = compaction ? 'after an earlier compaction' : 'with no earlier compaction';
    const run = (parameters: fc.Parameters<[{ text: string; keepRecentTokens: number }]>) => {
      const outcomes = new Map<string, number>();
      fc.assert(
        fc.property(sessionArb({ compaction }), ({ text, keepRecentTokens }) => {
          const outcome = checkAgreement(text, keepRecentTokens);
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }),
        parameters,
      );
      return outcomes;
    };

    it(`cuts, splits, summarizes and lists files as pi does ${when}`, () => {
      run({ numRuns: RUNS });
    }, PROPERTY_TIMEOUT);

    it(`reaches every kind of cut ${when} (fixed seed, so the check is stable)`, () => {
      const outcomes = run({ numRuns: 300, seed: compaction ? 7201 : 2562 });
      for (const outcome of ['split', 'whole', 'nothing', 'settings-before-user', 'trailing-results']) {
        expect(outcomes.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
      }
    }, PROPERTY_TIMEOUT);
  }

  it('estimates every message as pi does, except the documented CJK and user-image rules', () => {
    const cjkChars = new Set(CJK_SAMPLE);
    fc.assert(
      fc.property(sessionArb({ rich: true, compaction: true }), ({ text }) => {
        const { piPath, tillerPath } = load(text);
        piPath.forEach((entry, i) => {
          if (entry.type !== 'message') return;
          const tillerEntry = tillerPath[i]!;
          if (tillerEntry.kind !== 'message') throw new Error(`entry ${i} did not import as a message`);
          const piTokens = pi.estimateTokens(entry.message);
          const tillerTokens = estimateTokens(tillerEntry.message);
          const m = tillerEntry.message;
          if (m.role !== 'user') return expect(tillerTokens).toBe(piTokens);
          const texts = typeof m.content === 'string' ? [m.content] : m.content.flatMap((p) => (p.type === 'text' ? [p.text] : []));
          const images = typeof m.content === 'string' ? 0 : m.content.filter((p) => p.type !== 'text').length;
          const all = texts.join('');
          const cjk = [...all].filter((c) => cjkChars.has(c)).length;
          expect(tillerTokens).toBe(Math.ceil((all.length - cjk) / 4) + cjk + images * IMAGE_TOKENS);
          if (cjk === 0 && images === 0) expect(tillerTokens).toBe(piTokens);
          else expect(tillerTokens).toBeGreaterThanOrEqual(piTokens);
        });
      }),
      { numRuns: 60 },
    );
  }, PROPERTY_TIMEOUT);
});
