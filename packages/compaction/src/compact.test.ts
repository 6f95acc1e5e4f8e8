import { describe, expect, it } from 'vitest';
import { assistant, call, extend, label, pathOf, result, turn, user, words } from '../test/paths.js';
import { expectEachCompactionListsWhatLeftWithIt } from '../test/compaction-lists.js';
import { scriptedSummarizer } from '@tiller/testing';
import { buildContext, CompactionEntry, type Entry, type Usage } from '@tiller/core';
import { compact } from './compact.js';
import { compactionEntry } from './compaction-entry.js';
import { addUsage, type SummarizeRequest } from './summarizer.js';
import { CompactionConfigError, CompactionError } from './errors/index.js';
import { estimateTextTokens, estimateTokens } from './estimate-tokens.js';
import { prepareCompaction } from './prepare-compaction.js';
import { SUMMARIZER_SYSTEM_PROMPT, SUMMARY_SECTIONS, TURN_PREFIX_SECTIONS } from './prompts.js';
import { compactionSettings } from './settings.js';

const settings = compactionSettings({ keepRecentTokens: 1000 });
/** Three whole turns, the last one big enough to be kept alone: no split turn. */
const wholeTurns = () => pathOf(...turn(1, [400]), ...turn(2, [400]), user(words(1200), 'u3'), assistant('ok', { id: 'a3' }));
/** Turns whose cut lands inside turn 2. */
const splitTurns = () => pathOf(...turn(1, [800]), ...turn(2, [800]), ...turn(3, [800]));

describe('compactionEntry', () => {
  it('turns a result into an entry the core accepts and builds a context from', async () => {
    const path = wholeTurns();
    const compacted = await compact(prepareCompaction(path, settings)!, scriptedSummarizer());
    const entry = compactionEntry(compacted, { id: 'c1', parentId: path.at(-1)!.id, at: '2026-01-02T00:00:00.000Z', midRound: false });
    expect(CompactionEntry.parse(entry)).toEqual(entry);
    expect(entry).toMatchObject({
      summary: compacted.summary,
      firstKeptEntryId: 'u3',
      tokensAfter: compacted.tokensAfter,
      compactedEntryIds: compacted.compactedEntryIds,
      details: compacted.details,
      provenance: { strategy: 'summarize', midRound: false, summarizerModel: 'scripted-summarizer', summarizerUsage: compacted.usage },
    });
    const view = buildContext([...path, entry]);
    expect(view).toHaveLength(1 + 2);
    expect(view.reduce((sum, m) => sum + estimateTokens(m), 0)).toBe(compacted.tokensAfter);
  });
});

describe('addUsage', () => {
  it('sums counts, and costs when both sides have one', () => {
    const a = { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: 10, cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 } };
    expect(addUsage(a, a)).toEqual({ input: 2, output: 4, cacheRead: 6, cacheWrite: 8, totalTokens: 20, cost: { input: 0.2, output: 0.4, cacheRead: 0, cacheWrite: 0, total: 0.6 } });
    const { cost: _, ...bare } = a;
    expect(addUsage(a, bare)).toEqual({ input: 2, output: 4, cacheRead: 6, cacheWrite: 8, totalTokens: 20 });
    expect(addUsage(undefined, bare)).toBe(bare);
    expect(addUsage(bare, undefined)).toBe(bare);
  });
});

describe('compact', () => {
  it('asks for a structured summary of the serialized history, with the file lists closing it', async () => {
    const summarizer = scriptedSummarizer();
    const preparation = prepareCompaction(wholeTurns(), settings)!;
    expect(preparation.isSplitTurn).toBe(false);
    const result = await compact(preparation, summarizer, { customInstructions: 'keep the error codes' });

    expect(summarizer.requests).toHaveLength(1);
    const [request] = summarizer.requests;
    expect(request!.purpose).toBe('history');
    expect(request!.system).toBe(SUMMARIZER_SYSTEM_PROMPT);
    expect(request!.maxTokens).toBe(Math.floor(settings.reserveTokens * 0.8));
    const prompt = request!.prompt;
    expect(prompt).toMatch(/^<transcript>\nUSER: request 1 /);
    expect(prompt).toContain('ASSISTANT CALLS read {"path":"src/f1-0.ts"}');
    expect(prompt).toContain('RESULT OF read: aaaa');
    // The sections come in their order, and the custom focus comes last.
    const positions = SUMMARY_SECTIONS.map((heading) => prompt.indexOf(`\n${heading}\n`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(prompt.trimEnd().endsWith('Pay particular attention to: keep the error codes')).toBe(true);

    expect(result.summary).toBe('## Goal\nsummary 1 (history)\n\n## Files Touched\nRead:\n- src/f1-0.ts\n- src/f2-0.ts');
    expect(result.details).toEqual({ readFiles: ['src/f1-0.ts', 'src/f2-0.ts'], modifiedFiles: [] });
    expect(result.firstKeptEntryId).toBe('u3');
    expect(result.compactedEntryIds).toEqual(['u1', 'a1-0', 'r1-0', 'a1-end', 'u2', 'a2-0', 'r2-0', 'a2-end']);
    expect(result.tokensSaved).toBe(result.tokensBefore - result.tokensAfter);
    expect(result.tokensAfter).toBeLessThan(result.tokensBefore);
    expect(result.usage).toEqual({ input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110 });
    expect(result.summarizerModel).toBe('scripted-summarizer');
  });

  it('updates the previous summary instead of starting over', async () => {
    const path = extend(
      pathOf(...turn(1, [800])),
      { kind: 'compaction', summary: 'EARLIER NOTES', firstKeptEntryId: 'a1-end', tokensBefore: 1 },
      ...turn(2, [400]),
      user(words(1200), 'u3'),
    );
    const summarizer = scriptedSummarizer();
    const result = await compact(prepareCompaction(path, settings)!, summarizer);
    const [request] = summarizer.requests;
    expect(request!.purpose).toBe('history-update');
    expect(request!.prompt).toMatch(/^<earlier-notes>\nEARLIER NOTES\n<\/earlier-notes>\n\n<transcript>\nASSISTANT: a/);
    expect(request!.prompt).toContain('## Next Steps');
    expect(result.summary).toMatch(/^## Goal\nsummary 1 \(history-update\)/);
  });

  it('lists only the entries that leave the context with this compaction: successive compactions list disjoint ids', async () => {
    const compactAt = async (path: Entry[], id: string): Promise<Entry[]> => {
      const result = await compact(prepareCompaction(path, settings)!, scriptedSummarizer());
      return [...path, compactionEntry(result, { id, parentId: path.at(-1)!.id, at: '2026-01-02T00:00:00.000Z' })];
    };
    const first = await compactAt(pathOf(...turn(1, [800]), label('outside the context'), ...turn(2, [800]), ...turn(3, [800])), 'c1');
    const second = await compactAt(extend(first, ...turn(4, [800]), ...turn(5, [800])), 'c2');
    const lists = expectEachCompactionListsWhatLeftWithIt(second);
    expect(lists).toHaveLength(2);
    // What the first compaction kept leaves with the second, which starts its list there.
    const firstKept = (first.at(-1) as CompactionEntry).firstKeptEntryId;
    expect(lists[1]![0]).toBe(firstKept);
    expect(lists[0]).not.toContain(firstKept);
  });

  it('summarizes the history and the split turn\'s opening part at the same time', async () => {
    const summarizer = scriptedSummarizer({ hold: true });
    const preparation = prepareCompaction(splitTurns(), settings)!;
    expect(preparation.isSplitTurn).toBe(true);
    const pending = compact(preparation, summarizer);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Both requests are in flight before either has an answer.
    expect(summarizer.waiting.map((r) => r.purpose).sort()).toEqual(['history', 'turn-prefix']);
    summarizer.release();
    const result = await pending;

    const prefixRequest = summarizer.requests.find((r) => r.purpose === 'turn-prefix')!;
    expect(prefixRequest.maxTokens).toBe(Math.floor(settings.reserveTokens * 0.5));
    for (const heading of TURN_PREFIX_SECTIONS) expect(prefixRequest.prompt).toContain(`\n${heading}\n`);
    expect(prefixRequest.prompt).toContain('USER: request 2');
    expect(prefixRequest.prompt).not.toContain('USER: request 1');
    expect(result.summary).toMatch(/summary \d \(history\)\n\n---\n\n## Current Turn, Earlier Part\n\n## Goal\nsummary \d \(turn-prefix\)/);
    expect(result.usage?.totalTokens).toBe(220);
    expect(result.summarizerCalls).toBe(2);
  });

  it('keeps the previous summary as it was when only a turn prefix leaves the context', async () => {
    const path = extend(
      pathOf(user(words(10), 'u0'), assistant('x')),
      { kind: 'compaction', summary: 'EARLIER NOTES', firstKeptEntryId: 'nowhere', tokensBefore: 1 },
      ...turn(2, [800, 800]),
    );
    const summarizer = scriptedSummarizer();
    const preparation = prepareCompaction(path, settings)!;
    expect(preparation.messagesToSummarize).toHaveLength(0);
    expect(preparation.turnPrefixMessages.length).toBeGreaterThan(0);
    const result = await compact(preparation, summarizer);
    expect(summarizer.requests.map((r) => r.purpose)).toEqual(['turn-prefix']);
    expect(result.summary.startsWith('EARLIER NOTES\n\n---\n\n## Current Turn, Earlier Part')).toBe(true);
  });

  it('asks the summarizer nothing when what leaves the context holds no text, and keeps the summary it had', async () => {
    // An empty message (a host's empty prompt) is all that leaves: there is nothing to summarize,
    // which is no failure of the summarizer.
    for (const previous of [undefined, 'EARLIER NOTES']) {
      const start = previous === undefined ? [] : [user(words(10), 'u-old'), { kind: 'compaction' as const, summary: previous, firstKeptEntryId: 'u-empty', tokensBefore: 1 }];
      const path = pathOf(...start, user('', 'u-empty'), user(words(1200), 'u1'), assistant('ok', { id: 'a1' }));
      const preparation = prepareCompaction(path, settings)!;
      expect(preparation.messagesToSummarize.map((m) => m.content)).toEqual(['']);
      const summarizer = scriptedSummarizer();
      const result = await compact(preparation, summarizer);
      expect(summarizer.requests).toHaveLength(0);
      expect(result).toMatchObject({ summary: previous ?? '', summarizerCalls: 0, firstKeptEntryId: 'u1' });
    }
  });

  it('summarizes a history longer than the summarizer\'s window in chunks, each updating the summary so far (pi #1796)', async () => {
    const path = pathOf(...Array.from({ length: 40 }, (_, n) => turn(n + 1, [300])).flat(), user(words(1200), 'last'));
    const summarizer = scriptedSummarizer({ contextWindow: 12_000 });
    const small = compactionSettings({ keepRecentTokens: 1000, reserveTokens: 4000 });
    const preparation = prepareCompaction(path, small)!;
    const result = await compact(preparation, summarizer);

    expect(summarizer.requests.length).toBeGreaterThan(1);
    expect(summarizer.requests.map((r) => r.purpose)).toEqual(['history', ...summarizer.requests.slice(1).map(() => 'history-update')]);
    for (const request of summarizer.requests) {
      const sent = estimateTextTokens(request.system) + estimateTextTokens(request.prompt) + request.maxTokens;
      expect(sent).toBeLessThanOrEqual(12_000);
    }
    // Each chunk carries the summary so far, and every request of the history got through once, in order.
    summarizer.requests.slice(1).forEach((request, k) => expect(request.prompt).toContain(`summary ${k + 1} (`));
    const asked = summarizer.requests.map((r) => r.prompt).join('\n');
    const order = Array.from({ length: 40 }, (_, n) => asked.indexOf(`USER: request ${n + 1} `));
    expect(order.every((p) => p >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(result.summarizerCalls).toBe(summarizer.requests.length);
  });

  it('refuses a summarizer whose contextWindow is not a positive whole number, before asking it anything', async () => {
    const preparation = prepareCompaction(wholeTurns(), settings)!;
    for (const contextWindow of [Number.NaN, -5, 0, '8000']) {
      const summarizer = scriptedSummarizer();
      Object.defineProperty(summarizer, 'contextWindow', { value: contextWindow });
      const error = await compact(preparation, summarizer).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CompactionConfigError);
      expect(error).toMatchObject({ message: expect.stringMatching(/^compact: option "summarizer.contextWindow" is invalid/) });
      expect(summarizer.requests).toHaveLength(0);
    }
  });

  it('stops with an error, not a loop of calls, when chunking makes no progress', async () => {
    // A counter that prices any run of transcript at a billion tokens: no piece of a message fits.
    const counter = { name: 'absurd', count: (text: string) => (text.includes('aaaa') ? 1e9 : Math.ceil(text.length / 4)) };
    const preparation = prepareCompaction(wholeTurns(), settings)!;
    const summarizer = scriptedSummarizer({ contextWindow: 50_000 });
    const error = await compact(preparation, summarizer, { counter }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CompactionError', code: 'summarization_failed', message: expect.stringContaining('no progress') });
    expect(summarizer.requests.length).toBeLessThan(50);
  });

  it('splits a single message too long for any chunk', async () => {
    const path = pathOf(user(words(20_000, 'b'), 'huge'), assistant('ok'), user(words(1200), 'last'));
    const summarizer = scriptedSummarizer({ contextWindow: 8000 });
    await compact(prepareCompaction(path, compactionSettings({ keepRecentTokens: 1000, reserveTokens: 2000 }))!, summarizer);
    const sentB = summarizer.requests.reduce((n, r) => n + (r.prompt.match(/b/g)?.length ?? 0), 0);
    expect(sentB).toBeGreaterThanOrEqual(20_000 * 4);
    // 20,000 tokens through a window of 8,000 take at least three requests, each within the window.
    expect(summarizer.requests.length).toBeGreaterThanOrEqual(3);
    for (const request of summarizer.requests) {
      expect(estimateTextTokens(request.system) + estimateTextTokens(request.prompt) + request.maxTokens).toBeLessThanOrEqual(8000);
    }
    expect(summarizer.requests[1]!.prompt).toContain('(continued) bbbb');
  });

  it('fails as summarization_failed when the summarizer fails or says nothing, and as aborted when aborted', async () => {
    const preparation = prepareCompaction(wholeTurns(), settings)!;
    const failing = scriptedSummarizer({ reply: () => Promise.reject(new Error('HTTP 500')) });
    await expect(compact(preparation, failing)).rejects.toMatchObject({ name: 'CompactionError', code: 'summarization_failed', message: expect.stringContaining('HTTP 500') });
    await expect(compact(preparation, scriptedSummarizer({ reply: () => '  ' }))).rejects.toMatchObject({ code: 'summarization_failed' });

    const controller = new AbortController();
    const held = scriptedSummarizer({ hold: true });
    const pending = compact(preparation, held, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort(new Error('user pressed escape'));
    held.release();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompactionError);
    expect(error).toMatchObject({ code: 'aborted', message: expect.stringContaining('user pressed escape') });
    await expect(compact(preparation, scriptedSummarizer(), { signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
  });

  it('counts usage fields a summarizer leaves out as 0, so the entry stays one the session log takes', async () => {
    const preparation = prepareCompaction(splitTurns(), settings)!;
    expect(preparation.isSplitTurn).toBe(true);
    const local = { summarize: async () => ({ text: '## Goal\nshort', usage: { input: 900, output: 120, totalTokens: 1020 } as Usage }) };
    const result = await compact(preparation, local);
    expect(result.usage).toEqual({ input: 1800, output: 240, cacheRead: 0, cacheWrite: 0, totalTokens: 2040 });
    expect(result.warnings).toEqual([]);
    const entry = compactionEntry(result, { id: 'c1', parentId: 'x', at: '2026-01-02T00:00:00.000Z' });
    expect(CompactionEntry.safeParse(entry).success).toBe(true);
  });

  it('leaves out a usage that is not counts of tokens, and says so in warnings; the entry stays valid', async () => {
    const preparation = prepareCompaction(splitTurns(), settings)!;
    for (const [usage, said] of [
      ['lots', 'it is a string ("lots"), not an object'],
      [{ input: '100', output: 10 }, 'input is a string ("100")'],
      [{ input: -1 }, 'input is -1'],
      [{ input: Number.NaN }, 'input is NaN'],
      [{ totalTokens: 5, cost: { total: 'free' } }, 'cost.total is a string ("free")'],
    ] as const) {
      const junk = { summarize: async () => ({ text: '## Goal\nshort', usage: usage as unknown as Usage }) };
      const result = await compact(preparation, junk);
      expect(result.usage).toBeUndefined();
      expect(result.warnings).toEqual([
        expect.stringContaining(`the summarizer's usage (history) was left out: ${said}`),
        expect.stringContaining(`the summarizer's usage (turn-prefix) was left out: ${said}`),
      ]);
      const entry = compactionEntry(result, { id: 'c1', parentId: 'x', at: '2026-01-02T00:00:00.000Z' });
      expect(CompactionEntry.safeParse(entry).success).toBe(true);
      expect(entry.provenance).not.toHaveProperty('summarizerUsage');
    }
  });

  it('sums only the usages that are counts when one call of several reports junk', async () => {
    const preparation = prepareCompaction(splitTurns(), settings)!;
    const mixed = {
      summarize: async (request: SummarizeRequest) => ({ text: '## Goal\nshort', usage: (request.purpose === 'history' ? { input: 10, output: 5 } : { input: '7' }) as unknown as Usage }),
    };
    const result = await compact(preparation, mixed);
    expect(result.usage).toEqual({ input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 0 });
    expect(result.warnings).toEqual([expect.stringContaining("the summarizer's usage (turn-prefix) was left out: input is a string (\"7\")")]);
  });

  it('rejects as aborted when the signal fires while a summarizer that ignores it hangs, on both parts of a split turn', async () => {
    const preparation = prepareCompaction(splitTurns(), settings)!;
    const asked: string[] = [];
    const controller = new AbortController();
    const hanging = {
      summarize: (request: SummarizeRequest) => {
        // The stop comes once both parts hang, however slow the machine.
        if (asked.push(request.purpose) === 2) setTimeout(() => controller.abort(new Error('user pressed stop')), 1);
        return new Promise<never>(() => {});
      },
    };
    const pending = compact(preparation, hanging, { signal: controller.signal });
    await expect(pending).rejects.toMatchObject({ name: 'CompactionError', code: 'aborted', message: 'compaction aborted: user pressed stop' });
    expect(asked).toEqual(['history', 'turn-prefix']);
  });

  it('says what a summarizer returned when it is not a summary', async () => {
    const preparation = prepareCompaction(wholeTurns(), settings)!;
    for (const [returned, said] of [
      ['a fine summary', 'the summarizer returned a string ("a fine summary") instead of {text} (history)'],
      [{ text: 42 }, 'the summarizer returned {text: 42}, not text (history)'],
      [undefined, 'the summarizer returned undefined instead of {text} (history)'],
      [{ summary: 'x' }, 'the summarizer returned {text: undefined}, not text (history)'],
      [{ text: '  ' }, 'the summarizer returned an empty summary (history)'],
    ] as const) {
      const junk = { summarize: async () => returned as unknown as { text: string } };
      await expect(compact(preparation, junk)).rejects.toMatchObject({ code: 'summarization_failed', message: said });
    }
  });

  it('fails as summarization_failed when the summarizer throws synchronously', async () => {
    const preparation = prepareCompaction(wholeTurns(), settings)!;
    const throwing = { summarize: () => { throw new Error('sync boom'); } };
    await expect(compact(preparation, throwing, { signal: new AbortController().signal })).rejects.toMatchObject({ code: 'summarization_failed', message: expect.stringContaining('sync boom') });
  });

  it('fails clearly when the summarizer\'s window cannot hold even the instructions', async () => {
    const preparation = prepareCompaction(wholeTurns(), settings)!;
    await expect(compact(preparation, scriptedSummarizer({ contextWindow: 2000 }))).rejects.toMatchObject({
      code: 'summarization_failed',
      message: expect.stringMatching(/window of 2000 tokens/),
    });
  });

  it('keeps a tool call\'s path arguments from configured tools', async () => {
    const path = pathOf(
      user(words(10)),
      assistant([call('c1', 'open_file', { file: 'docs/a.md' }), call('c2', 'save_file', { file: 'docs/b.md' })]),
      result('c1', 'x', 'open_file'),
      result('c2', 'x', 'save_file'),
      user(words(2000), 'keep'),
    );
    const preparation = prepareCompaction(path, settings, { fileTools: { read: ['open_file'], modify: ['save_file'], pathArgs: ['file'] } })!;
    const compacted = await compact(preparation, scriptedSummarizer());
    expect(compacted.details).toEqual({ readFiles: ['docs/a.md'], modifiedFiles: ['docs/b.md'] });
    expect(compacted.summary).toContain('Modified:\n- docs/b.md');
  });
});
