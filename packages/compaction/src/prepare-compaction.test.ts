import type { Entry } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { assistant, call, extend, label, pathOf, result, turn, usage, user, words } from '../test/paths.js';
import { CompactionError } from './errors/index.js';
import { estimateSpanTokens } from './estimate-tokens.js';
import { prepareCompaction } from './prepare-compaction.js';
import { compactionSettings } from './settings.js';

const settings = compactionSettings({ keepRecentTokens: 1000 });
const idsOf = (entries: readonly Entry[]) => entries.map((e) => e.id);

describe('prepareCompaction', () => {
  it('summarizes the history before the kept turns and keeps about keepRecentTokens', () => {
    const path = pathOf(...turn(1, [800]), ...turn(2, [800]), ...turn(3, [800]));
    const preparation = prepareCompaction(path, settings)!;
    // From the end: turn 3 (~830 tokens), then a2-end, then r2-0 crosses 1,000: the cut lands on a2-end.
    expect(preparation.firstKeptEntryId).toBe('a2-end');
    expect(preparation.isSplitTurn).toBe(true);
    expect(idsOf(preparation.compactedEntries)).toEqual(['u1', 'a1-0', 'r1-0', 'a1-end', 'u2', 'a2-0', 'r2-0']);
    expect(preparation.messagesToSummarize.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
    expect(preparation.turnPrefixMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
    expect(preparation.previousSummary).toBeUndefined();
  });

  it('tracks the files the summarized calls read and modified', () => {
    const path = pathOf(
      user(words(10)),
      assistant([call('c1', 'read', { path: 'a.ts' }), call('c2', 'edit', { path: 'b.ts' }), call('c3', 'read', { path: 'b.ts' })]),
      result('c1', 'x'),
      result('c2', 'x', 'edit'),
      result('c3', 'x'),
      assistant([call('c4', 'write', { path: 'c.ts' }), call('c5', 'bash', { path: 'ignored.ts' })]),
      result('c4', 'x', 'write'),
      result('c5', 'x', 'bash'),
      user(words(2000), 'keep'),
    );
    const preparation = prepareCompaction(path, settings)!;
    expect(preparation.firstKeptEntryId).toBe('keep');
    expect(preparation.fileLists).toEqual({ readFiles: ['a.ts'], modifiedFiles: ['b.ts', 'c.ts'] });
  });

  it('returns null when nothing would leave the context', () => {
    expect(prepareCompaction([], settings)).toBeNull();
    expect(prepareCompaction(pathOf(user(words(100)), assistant(words(100))), settings)).toBeNull();
    // The budget is met only at the first message: cutting there keeps everything.
    expect(prepareCompaction(pathOf(label('start'), user(words(2000)), assistant(words(10))), settings)).toBeNull();
    const compacted = extend(pathOf(...turn(1, [800]), ...turn(2, [800])), {
      kind: 'compaction',
      summary: 's',
      firstKeptEntryId: 'u2',
      tokensBefore: 1,
    });
    expect(prepareCompaction(compacted, settings)).toBeNull();
  });

  it('summarizes a huge trailing tool result\'s older history instead of keeping everything (pi #7201)', () => {
    const path = pathOf(...turn(1, [300]), user(words(10), 'u2'), assistant([call('big', 'read', { path: 'huge.log' })], { id: 'a2' }), result('big', words(5000)));
    const preparation = prepareCompaction(path, settings)!;
    expect(preparation.firstKeptEntryId).toBe('a2');
    expect(idsOf(preparation.compactedEntries)).toEqual(['u1', 'a1-0', 'r1-0', 'a1-end', 'u2']);
  });

  it('starts from the previous compaction\'s kept entries and hands on its summary and files', () => {
    const before = pathOf(...turn(1, [800]), ...turn(2, [800]));
    const path = extend(
      before,
      { kind: 'compaction', summary: 'earlier work', firstKeptEntryId: 'u2', tokensBefore: 1, details: { readFiles: ['old.ts'], modifiedFiles: ['x.ts'] } },
      ...turn(3, [800]),
      ...turn(4, [800]),
    );
    const preparation = prepareCompaction(path, settings)!;
    expect(preparation.previousSummary).toBe('earlier work');
    expect(preparation.compactedEntries[0]!.id).toBe('u2');
    expect(idsOf(preparation.compactedEntries)).not.toContain('u1');
    expect(preparation.fileLists.readFiles).toEqual(expect.arrayContaining(['old.ts', 'src/f2-0.ts', 'src/f3-0.ts']));
    expect(preparation.fileLists.modifiedFiles).toEqual(['x.ts']);
  });

  it('keeps thinking stripped where an earlier compaction stripped it, and only there', () => {
    const stripped = (keptFrom: string) =>
      extend(pathOf(...turn(1, [800]), ...turn(2, [800])), { kind: 'compaction', summary: 's', firstKeptEntryId: keptFrom, tokensBefore: 1, stripThinking: true }, ...turn(3, [800]), ...turn(4, [300]));
    // The new cut keeps entries from before the earlier compaction: they stay stripped.
    expect(prepareCompaction(stripped('u1'), compactionSettings({ keepRecentTokens: 2500 }))!.stripThinking).toBe(true);
    // The new cut is after it: nothing it stripped stays, so nothing needs stripping.
    expect(prepareCompaction(stripped('u2'), settings)!.stripThinking).toBe(false);
    expect(prepareCompaction(stripped('u2'), settings, { stripThinking: true })!.stripThinking).toBe(true);
  });

  it('estimates the context before and the part kept after', () => {
    const path = pathOf(...turn(1, [800]), assistant('done', { usage: usage(50_000) }), ...turn(2, [800]));
    const preparation = prepareCompaction(path, settings, { promptTokens: 500 })!;
    const anchor = path.findIndex((e) => e.kind === 'message' && e.message.role === 'assistant' && e.message.usage);
    // Anchored on the reported usage, which already counts the prompt; the rest is estimated.
    expect(preparation.tokensBefore).toBe(50_000 + estimateSpanTokens(path.slice(anchor + 1)));
    const firstKept = path.findIndex((e) => e.id === preparation.firstKeptEntryId);
    // Nothing kept is reshaped here, so what stays is its plain estimate, plus the prompt.
    expect(preparation.keptTokens).toBe(estimateSpanTokens(path.slice(firstKept)) + 500);
  });

  it('rejects bad settings by name', () => {
    expect(() => prepareCompaction(pathOf(user('a')), { ...settings, keepRecentTokens: 0 })).toThrow(
      /^prepareCompaction settings: option "keepRecentTokens" is invalid/,
    );
  });

  it('rejects entries that do not form a path', () => {
    const path = pathOf(user('a'), user('b'));
    const broken = [path[0]!, { ...path[1]!, parentId: 'elsewhere' }];
    expect(() => prepareCompaction(broken, settings)).toThrow(CompactionError);
    expect(() => prepareCompaction(broken, settings)).toThrow(/entry 1 \(id "e2"\) has parent "elsewhere"/);
  });
});
