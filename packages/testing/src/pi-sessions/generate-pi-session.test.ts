import { describe, expect, it } from 'vitest';
import { generatePiSession } from './generate-pi-session.js';

const lines = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/u;

describe('generatePiSession', () => {
  it('gives the same file for the same seed, and another for another seed', () => {
    expect(generatePiSession({ seed: 7, format: 3 }).text).toBe(generatePiSession({ seed: 7, format: 3 }).text);
    expect(generatePiSession({ seed: 8, format: 3 }).text).not.toBe(generatePiSession({ seed: 7, format: 3 }).text);
  });

  for (const format of [1, 3] as const) {
    it(`format ${format}: holds every feature a recorded session has`, () => {
      const { counts, text } = generatePiSession({ seed: 3, format });
      for (const feature of ['userMessages', 'assistantMessages', 'toolResults', 'bashExecutions', 'thinkingLevelChanges', 'modelChanges', 'compactions', 'parallelCalls', 'abortedReplies', 'failedReplies', 'images', 'cjkMessages', 'thinkingSignatures'] as const) {
        expect(counts[feature], feature).toBeGreaterThan(0);
      }
      expect(counts.branchSummaries > 0).toBe(format === 3);
      const all = lines(text);
      expect(all).toHaveLength(counts.entries + 1);
      expect(all.filter((l) => l.type === 'compaction')).toHaveLength(counts.compactions);
      expect(CJK.test(text)).toBe(true);
    });
  }

  it('format 1: a header without a version, lines without ids, compactions that point at a line', () => {
    const [header, ...entries] = lines(generatePiSession({ seed: 4, format: 1 }).text);
    expect(header).toMatchObject({ type: 'session' });
    expect(header!.version).toBeUndefined();
    expect(entries.every((e) => e.id === undefined && e.parentId === undefined)).toBe(true);
    for (const compaction of entries.filter((e) => e.type === 'compaction')) {
      const index = compaction.firstKeptEntryIndex as number;
      const kept = entries[index - 1]!;
      expect(kept.type).toBe('message');
      expect(['user', 'assistant']).toContain((kept.message as { role: string }).role);
    }
  });

  it('format 3: a tree whose parents come first, branches from earlier user messages, the leaf last', () => {
    const session = generatePiSession({ seed: 4, format: 3 });
    const [header, ...entries] = lines(session.text);
    expect(header).toMatchObject({ type: 'session', version: 3 });
    const seen = new Map<string, Record<string, unknown>>();
    for (const entry of entries) {
      expect(seen.has(entry.id as string)).toBe(false);
      if (entry.parentId !== null) expect(seen.has(entry.parentId as string)).toBe(true);
      seen.set(entry.id as string, entry);
    }
    const children = new Map<string, number>();
    for (const entry of entries) children.set(entry.parentId as string, (children.get(entry.parentId as string) ?? 0) + 1);
    // A branch point has two children: the line it had, and the branch summary of the new one.
    for (const summary of entries.filter((e) => e.type === 'branch_summary')) {
      expect(summary.parentId).toBe(summary.fromId);
      expect((seen.get(summary.fromId as string)!.message as { role: string }).role).toBe('user');
      expect(children.get(summary.fromId as string)).toBe(2);
    }
    expect(session.leafId).toBe(entries.at(-1)!.id);
  });

  it('without rich text it writes no CJK and no user images; without compactions and shell commands, none', () => {
    const { text, counts } = generatePiSession({ seed: 5, format: 3, rich: false, compactions: false, shellCommands: false });
    expect(CJK.test(text)).toBe(false);
    const users = lines(text).filter((l) => (l.message as { role?: string } | undefined)?.role === 'user');
    expect(users.some((u) => JSON.stringify(u).includes('"type":"image"'))).toBe(false);
    expect(counts).toMatchObject({ compactions: 0, bashExecutions: 0, cjkMessages: 0 });
  });

  it('format 3 without branches: one chain from the root to the leaf, each entry the child of the one before', () => {
    const session = generatePiSession({ seed: 5, format: 3, branches: false, turns: 60 });
    const entries = lines(session.text).slice(1);
    expect(session.counts.branchSummaries).toBe(0);
    expect(entries.map((e) => e.parentId)).toEqual([null, ...entries.slice(0, -1).map((e) => e.id)]);
    // The rest is as rich as with branches.
    expect(session.counts).toMatchObject({ compactions: 2, abortedReplies: 1, failedReplies: 1 });
  });

  it('ends with a long tool loop unless told not to', () => {
    const toolRoundsAtEnd = (text: string) => {
      const all = lines(text);
      const lastUser = all.findLastIndex((l) => (l.message as { role?: string } | undefined)?.role === 'user');
      return all.slice(lastUser).filter((l) => (l.message as { stopReason?: string } | undefined)?.stopReason === 'toolUse').length;
    };
    expect(toolRoundsAtEnd(generatePiSession({ seed: 6, format: 3 }).text)).toBeGreaterThanOrEqual(7);
  });
});
