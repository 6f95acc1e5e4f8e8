import type { Entry, Message, Usage } from '@tiller/core';
import { buildContext, CompactionEntry } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { expectEachCompactionListsWhatLeftWithIt } from '../test/compaction-lists.js';
import { assistant, call, type Draft, extend, pathOf, result, turn, user, words } from '../test/paths.js';
import { scriptedSummarizer } from '@tiller/testing';
import { type CompactionContext, NoOpCompactor } from './compactor.js';
import { CompactionConfigError, CompactionError } from './errors/index.js';
import { estimateTokens } from './estimate-tokens.js';
import type { ModelCatalog } from './model-catalog.js';
import { compactionSettings, DEFAULT_COMPACTION_SETTINGS } from './settings.js';
import { runCompactor } from './run-compactor.js';
import { createTokenLedger } from './token-ledger.js';
import type { Summarizer } from './summarizer.js';
import { WindowManager, type WindowManagerInput } from './window-manager.js';

/** One turn of a long tool loop: each round thinks, calls `read`, and gets `size` tokens back. */
function toolLoop(rounds: number, size = 1000): Draft[] {
  const drafts: Draft[] = [user('refactor the parser', 'u')];
  for (let k = 0; k < rounds; k++) {
    drafts.push(assistant([{ type: 'thinking', thinking: `plan ${k}` }, call(`c${k}`, 'read', { path: `src/p${k}.ts` })], { id: `a${k}` }));
    drafts.push(result(`c${k}`, words(size), 'read', `r${k}`));
  }
  return drafts;
}

const ctx = (over: Partial<CompactionContext> = {}): CompactionContext => ({ model: 'test-model', window: 30_000, promptTokens: 500, midRound: false, ...over });
const contextTokens = (path: readonly Entry[]) => buildContext(path).reduce((sum, m) => sum + estimateTokens(m), 0);
const ids = (entries: readonly Entry[]) => entries.map((e) => e.id);
let n = 0;
const config = { reserveTokens: 4000, keepRecentTokens: 8000, newId: () => `new-${++n}`, now: () => new Date('2026-02-01T00:00:00Z') };

function pairedCalls(messages: Message[]): boolean {
  const results = new Set(messages.flatMap((m) => (m.role === 'toolResult' ? [m.toolCallId] : [])));
  return messages.every((m) => m.role !== 'assistant' || m.content.every((p) => p.type !== 'toolCall' || results.has(p.id)));
}

describe('NoOpCompactor', () => {
  it('changes nothing and needs no window', async () => {
    const acc = { path: pathOf(...toolLoop(40)) };
    const outcome = await NoOpCompactor.maybeCompact(acc, ctx());
    expect(outcome.acc).toBe(acc);
    expect(outcome.meta).toEqual({ compacted: false, appended: [] });
    expect(NoOpCompactor.needsWindow?.()).toBe(false);
  });
});

describe('WindowManager', () => {
  it('leaves a context that fits alone, at a turn start and mid-round', async () => {
    const manager = WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), ...config });
    const acc = { path: pathOf(...toolLoop(20)) }; // about 21,000 tokens + 500 of prompt, under 26,000
    for (const midRound of [false, true]) {
      const outcome = await manager.maybeCompact(acc, ctx({ midRound }));
      expect(outcome.acc).toBe(acc);
      expect(outcome.meta.compacted).toBe(false);
    }
  });

  it('decides from the ledger without estimating a single message', async () => {
    const counted: string[] = [];
    const counter = { name: 'spy', count: (text: string) => (counted.push(text), Math.ceil(text.length / 4)) };
    const manager = WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), counter, ...config });
    const path = pathOf(...toolLoop(20));
    const ledger = createTokenLedger(path, { counter });
    counted.length = 0;
    const outcome = await manager.maybeCompact({ path, ledger }, ctx({ midRound: true }));
    expect(outcome.meta.compacted).toBe(false);
    expect(counted).toEqual([]);
  });

  it('summarizes over the window: one compaction entry appended, the context back under the line', async () => {
    const summarizer = scriptedSummarizer();
    const manager = WindowManager({ strategy: 'summarize', summarizer, ...config });
    const path = pathOf(...turn(1, [3000]), ...turn(2, [3000]), ...turn(3, [3000]), ...turn(4, [3000]), ...turn(5, [3000]), ...turn(6, [3000]), ...turn(7, [3000]), ...turn(8, [3000]), ...turn(9, [3000]));
    const ledger = createTokenLedger(path);
    const { acc, meta } = await manager.maybeCompact({ path, ledger }, ctx());

    expect(meta.compacted).toBe(true);
    if (!meta.compacted) return;
    expect(acc.path.slice(0, path.length)).toEqual(path);
    expect(acc.path).toHaveLength(path.length + 1);
    const entry = acc.path.at(-1)!;
    expect(meta.appended).toEqual([entry]);
    expect(entry).toMatchObject({ kind: 'compaction', id: expect.stringMatching(/^new-/), parentId: path.at(-1)!.id, at: '2026-02-01T00:00:00.000Z' });
    if (entry.kind !== 'compaction') return;
    expect(entry.provenance).toMatchObject({ strategy: 'summarize', midRound: false, summarizerModel: 'scripted-summarizer' });
    expect(entry.stripThinking).toBeUndefined();
    expect(meta.strategy).toBe('summarize');
    expect(ids(meta.dropped)).toEqual(entry.compactedEntryIds);
    expect(meta.dropped[0]!.id).toBe('u1');
    expect(meta.tokensBefore).toBe(contextTokens(path) + 500);
    expect(meta.tokensAfter).toBe(contextTokens(acc.path) + 500);
    expect(meta.tokensRemoved).toBe(meta.tokensBefore - meta.tokensAfter);
    expect(meta.tokensAfter).toBeLessThan(30_000 - 4000);
    // The ledger followed: the next decision is O(1) and right.
    expect(acc.ledger?.length).toBe(acc.path.length);
    expect(acc.ledger!.tokens + 500).toBe(meta.tokensAfter);
    expect(buildContext(acc.path)[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: expect.stringContaining('summary 1 (history)') }] });
  });

  it('compacts inside a long tool loop between rounds, and the kept messages lose their thinking but the running round\'s', async () => {
    const manager = WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), ...config });
    const path = pathOf(...toolLoop(30));
    const { acc, meta } = await manager.maybeCompact({ path }, ctx({ midRound: true }));
    expect(meta).toMatchObject({ compacted: true, midRound: true });
    const entry = acc.path.at(-1)!;
    expect(entry).toMatchObject({ kind: 'compaction', stripThinking: true, provenance: { midRound: true } });
    const view = buildContext(acc.path);
    const replies = view.filter((m) => m.role === 'assistant');
    const thought = (m: Message) => m.role === 'assistant' && m.content.some((p) => p.type === 'thinking');
    // The reply whose results the next request carries keeps its thinking (Anthropic refuses it without).
    expect(replies.length).toBeGreaterThan(1);
    expect(replies.slice(0, -1).some(thought)).toBe(false);
    expect(replies.at(-1)!.content[0]).toMatchObject({ type: 'thinking' });
    expect(pairedCalls(view)).toBe(true);
    // A split turn: the user's request is in the summary, not in the kept messages.
    expect(view.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('clears old tool results and keeps each call with its result; a later clearing carries the earlier one', async () => {
    const manager = WindowManager({ strategy: 'clearToolResults', ...config });
    const path = pathOf(...toolLoop(30));
    const first = await manager.maybeCompact({ path }, ctx({ midRound: true }));
    expect(first.meta.compacted).toBe(true);
    if (!first.meta.compacted) return;
    expect(first.meta.dropped).toEqual([]);
    const cleared = first.meta.clearedEntryIds;
    expect(cleared[0]).toBe('r0');
    expect(cleared).not.toContain('r29');
    const view = buildContext(first.acc.path);
    expect(view).toHaveLength(1 + 30 * 2);
    expect(pairedCalls(view)).toBe(true);
    const r0 = view.find((m) => m.role === 'toolResult' && m.toolCallId === 'c0');
    expect(r0).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('removed to keep the context small') }] });
    expect(first.meta.tokensAfter).toBeLessThan(30_000 - 4000);

    const longer = extend(first.acc.path, ...toolLoop(30).slice(1).map((d) => ({ ...d, id: `more-${d.id}` }) as Draft));
    const second = await manager.maybeCompact({ path: longer }, ctx({ midRound: true }));
    expect(second.meta.compacted).toBe(true);
    if (!second.meta.compacted) return;
    expect(second.meta.clearedEntryIds).toEqual(expect.arrayContaining([...cleared, 'more-r0']));
    expect(second.meta.tokensAfter).toBe(contextTokens(second.acc.path) + 500);
  });

  for (const strategy of ['summarize', 'keepTail'] as const) {
    it(`${strategy}: each compaction lists only the entries that left with it, in the entry and in meta.dropped`, async () => {
      const manager = WindowManager({ strategy, summarizer: scriptedSummarizer(), ...config });
      const first = await manager.maybeCompact({ path: pathOf(...toolLoop(30)) }, ctx({ midRound: true }));
      const more = toolLoop(30).map((d) => ({ ...d, id: `more-${d.id}` }) as Draft);
      const second = await manager.maybeCompact({ path: extend(first.acc.path, ...more) }, ctx({ midRound: true }));
      expect(first.meta.compacted && second.meta.compacted).toBe(true);
      if (!first.meta.compacted || !second.meta.compacted) return;
      const lists = expectEachCompactionListsWhatLeftWithIt(second.acc.path);
      expect(lists).toEqual([ids(first.meta.dropped), ids(second.meta.dropped)]);
      // The entries the first compaction kept leave with the second.
      expect(lists[1]![0]).toBe((first.meta.appended[0] as { firstKeptEntryId: string }).firstKeptEntryId);
    });
  }

  it('keepTail drops the oldest whole turns with no summary', async () => {
    const manager = WindowManager({ strategy: 'keepTail', ...config });
    const path = pathOf(...[1, 2, 3, 4, 5, 6, 7, 8, 9].flatMap((k) => turn(k, [3000])));
    const { acc, meta } = await manager.maybeCompact({ path }, ctx());
    expect(meta.compacted).toBe(true);
    if (!meta.compacted) return;
    const entry = acc.path.at(-1)!;
    expect(entry).toMatchObject({ kind: 'compaction', summary: '' });
    const view = buildContext(acc.path);
    expect(view[0]).toMatchObject({ role: 'user', content: expect.stringMatching(/^request \d/) });
    expect(ids(meta.dropped)).toEqual(ids(path.slice(0, path.findIndex((e) => e.kind === 'compaction' || e.id === (entry as { firstKeptEntryId: string }).firstKeptEntryId))));
    expect(meta.dropped.at(-1)!.id).toMatch(/-end$/);
    expect(meta.tokensAfter).toBeLessThan(30_000 - 4000);
  });

  it('compacts under the line when forced after an overflow', async () => {
    const manager = WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), ...config });
    const { meta } = await manager.maybeCompact({ path: pathOf(...toolLoop(12)) }, ctx({ force: true, reason: 'overflow' }));
    expect(meta.compacted).toBe(true);
  });

  it('appends nothing when the summary would not shrink the context', async () => {
    const verbose = scriptedSummarizer({ reply: () => words(40_000) });
    const manager = WindowManager({ strategy: 'summarize', summarizer: verbose, ...config });
    const acc = { path: pathOf(...toolLoop(30)) };
    const { acc: after, meta } = await manager.maybeCompact(acc, ctx());
    expect(verbose.requests.length).toBeGreaterThan(0);
    expect(after).toBe(acc);
    expect(meta).toMatchObject({ compacted: false, appended: [], skipped: expect.stringMatching(/^the context would not shrink \(\d+ -> \d+ tokens\)$/) });
  });

  it('reports an aborted compaction and appends nothing', async () => {
    const summarizer = scriptedSummarizer({ hold: true });
    const manager = WindowManager({ strategy: 'summarize', summarizer, ...config });
    const controller = new AbortController();
    const acc = { path: pathOf(...toolLoop(30)) };
    const pending = manager.maybeCompact(acc, ctx({ signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort(new Error('turn aborted'));
    summarizer.release();
    const { acc: after, meta } = await pending;
    expect(after).toBe(acc);
    expect(meta).toMatchObject({ compacted: false, appended: [], error: { name: 'CompactionError', code: 'aborted' } });
  });

  it('compacts when the summarizer reports junk usage: the entry is valid, and meta.warnings says what was left out', async () => {
    const junk = { summarize: async () => ({ text: '## Goal\nshort', usage: { input: '100', output: 10 } as unknown as Usage }) };
    const manager = WindowManager({ strategy: 'summarize', summarizer: junk, ...config });
    const { meta } = await manager.maybeCompact({ path: pathOf(...toolLoop(30)) }, ctx());
    expect(meta.compacted).toBe(true);
    if (!meta.compacted) return;
    expect(CompactionEntry.safeParse(meta.appended[0]).success).toBe(true);
    expect(meta.summarizerUsage).toBeUndefined();
    expect(meta.warnings).toEqual([expect.stringContaining('was left out: input is a string ("100")')]);
    const run = await runCompactor(manager, { path: pathOf(...toolLoop(30)) }, ctx());
    expect(run.meta).toMatchObject({ compacted: true, warnings: meta.warnings });
  });

  it('settles as aborted when the signal fires while a summarizer that ignores it hangs', async () => {
    const hanging = { summarize: () => new Promise<never>(() => {}) };
    const manager = WindowManager({ strategy: 'summarize', summarizer: hanging, ...config });
    const controller = new AbortController();
    const acc = { path: pathOf(...toolLoop(30)) };
    const pending = manager.maybeCompact(acc, ctx({ signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('user pressed stop')), 10);
    const { acc: after, meta } = await pending;
    expect(after).toBe(acc);
    expect(meta).toMatchObject({ compacted: false, appended: [], error: { name: 'CompactionError', code: 'aborted', message: 'compaction aborted: user pressed stop' } });
  });

  it('reports a failed summary and appends nothing', async () => {
    const manager = WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer({ reply: () => Promise.reject(new Error('model down')) }), ...config });
    const acc = { path: pathOf(...toolLoop(30)) };
    const { acc: after, meta } = await manager.maybeCompact(acc, ctx());
    expect(after).toBe(acc);
    expect(meta).toMatchObject({ compacted: false, appended: [], error: expect.any(CompactionError) });
    if (meta.compacted) return;
    expect(meta.error).toMatchObject({ code: 'summarization_failed' });
  });

  it('says the reserve it keeps below the window: its reserveTokens, or the default', () => {
    expect(WindowManager({ strategy: 'keepTail', reserveTokens: 4_000, keepRecentTokens: 2_000 }).reserveFor('any/model')).toBe(4_000);
    expect(WindowManager({ strategy: 'keepTail', reserveTokens: 4_000 }).reserveFor('any/model', { reserveTokens: 1_000 })).toBe(1_000);
    expect(WindowManager({ strategy: 'keepTail' }).reserveFor('any/model')).toBe(DEFAULT_COMPACTION_SETTINGS.reserveTokens);
  });

  it('takes the window from the pin, the context or the catalog, and refuses an unknown model', async () => {
    const manager = WindowManager({ strategy: 'keepTail', ...config });
    expect(manager.windowFor('anthropic/claude-sonnet-4-5')).toBe(200_000);
    expect(manager.windowFor('claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(() => manager.windowFor('my-local-llama')).toThrow(CompactionConfigError);
    expect(() => manager.windowFor('my-local-llama')).toThrow(/WindowManager.windowFor: option "contextWindow" is required: .*"my-local-llama"/);
    expect(manager.needsWindow?.()).toBe(true);
    expect(manager.needsWindow?.({ contextWindow: 50_000 })).toBe(false);

    const { meta } = await manager.maybeCompact({ path: pathOf(...toolLoop(30)) }, ctx({ model: 'my-local-llama', window: undefined }));
    expect(meta).toMatchObject({ compacted: false, error: expect.any(CompactionConfigError) });
    const pinned = WindowManager({ strategy: 'keepTail', ...config, contextWindow: 1_000_000 });
    expect((await pinned.maybeCompact({ path: pathOf(...toolLoop(30)) }, ctx({ model: 'my-local-llama' }))).meta.compacted).toBe(false);
  });

  it('refuses a model id that is not a non-empty string, naming the argument, pinned window or not (before: a bare TypeError, "Cannot read properties of undefined (reading \'includes\')")', async () => {
    for (const manager of [WindowManager({ strategy: 'keepTail', ...config }), WindowManager({ strategy: 'keepTail', ...config, contextWindow: 100_000 })]) {
      for (const [model, said] of [
        [undefined, 'undefined'],
        ['', 'a string \\(""\\)'],
        [42, '42'],
        [{ id: 'gpt-4o' }, 'an object'],
      ] as const) {
        expect(() => manager.windowFor(model as never), said).toThrow(CompactionConfigError);
        expect(() => manager.windowFor(model as never), said).toThrow(
          new RegExp(`^WindowManager\\.windowFor: option "model" is invalid: expected a model id \\(a non-empty string\\), not ${said}$`),
        );
        const { meta } = await manager.maybeCompact({ path: pathOf(...toolLoop(30)) }, ctx({ model: model as never }));
        expect(meta).toMatchObject({ compacted: false, appended: [], error: expect.any(CompactionConfigError) });
        if (!meta.compacted) expect(meta.error?.message).toMatch(new RegExp(`^WindowManager\\.maybeCompact: option "ctx\\.model" is invalid: expected a model id \\(a non-empty string\\), not ${said}$`));
      }
    }
  });

  it('takes a hand-written catalog that only answers contextWindow(model), and refuses one whose answer is not a window, naming the catalog (before: a TypeError, requireContextWindow is not a function; a NaN window never compacted)', async () => {
    const own = { contextWindow: (model: string) => (model === 'my-llama' ? 20_000 : undefined) } as unknown as ModelCatalog;
    const manager = WindowManager({ strategy: 'keepTail', ...config, catalog: own });
    expect(manager.windowFor('my-llama')).toBe(20_000);
    expect(() => manager.windowFor('gpt-4o')).toThrow(/^WindowManager\.windowFor: option "contextWindow" is required: the model catalog does not know "gpt-4o"/);
    expect((await manager.maybeCompact({ path: pathOf(...toolLoop(30)) }, ctx({ model: 'my-llama', window: undefined }))).meta.compacted).toBe(true);
    for (const answer of [Number.NaN, '200000', 0, 1.5, -1]) {
      const junk = WindowManager({ strategy: 'keepTail', ...config, catalog: { contextWindow: () => answer } as unknown as ModelCatalog });
      expect(() => junk.windowFor('my-llama'), String(answer)).toThrow(
        new RegExp(`^WindowManager\\.windowFor: option "catalog" is invalid: its contextWindow\\("my-llama"\\) answered ${answer === '200000' ? 'a string \\("200000"\\)' : String(answer).replace('.', '\\.')}, not a positive whole number of tokens`),
      );
      const { meta } = await junk.maybeCompact({ path: pathOf(...toolLoop(30)) }, ctx({ model: 'my-llama', window: undefined }));
      expect(meta).toMatchObject({ compacted: false, error: expect.any(CompactionConfigError) });
    }
    expect(() => WindowManager({ strategy: 'keepTail', catalog: { requireContextWindow: () => 1 } as unknown as ModelCatalog })).toThrow(/option "catalog" is invalid: expected a ModelCatalog/);
  });

  it('refuses a boundary whose window or prompt tokens are not counts, naming the field, and appends nothing', async () => {
    const manager = WindowManager({ strategy: 'keepTail', ...config });
    const acc = { path: pathOf(...toolLoop(30)) };
    expect((await manager.maybeCompact(acc, ctx({ window: 20_000 }))).meta.compacted).toBe(true);
    for (const [over, field] of [
      [{ window: Number.NaN }, 'ctx.window'],
      [{ window: -5 }, 'ctx.window'],
      [{ window: '8000' }, 'ctx.window'],
      [{ promptTokens: Number.NaN }, 'ctx.promptTokens'],
      [{ promptTokens: -100_000 }, 'ctx.promptTokens'],
    ] as const) {
      const { acc: after, meta } = await manager.maybeCompact(acc, ctx({ window: 20_000, ...(over as Partial<CompactionContext>) }));
      expect(after).toBe(acc);
      expect(meta).toMatchObject({ compacted: false, appended: [], error: expect.any(CompactionConfigError) });
      if (meta.compacted) continue;
      expect(meta.error?.message).toMatch(new RegExp(`^WindowManager\\.maybeCompact: option "${field.replace('.', '\\.')}" is invalid`));
    }
  });

  it('rejects bad options at configuration, naming the entry point and the option', () => {
    expect(() => WindowManager({ strategy: 'summarize' })).toThrow('WindowManager: option "summarizer" is invalid: is required by the summarize strategy');
    expect(() => WindowManager({ strategy: 'shrink' as 'keepTail' })).toThrow(/WindowManager: option "strategy" is invalid/);
    const manager = WindowManager({ strategy: 'keepTail' });
    expect(() => manager.validateOpts?.({ keepRecentTokens: -5 }, 'createAgent({compactor})')).toThrow(
      /^createAgent\(\{compactor\}\): option "keepRecentTokens" is invalid/,
    );
    expect(() => manager.validateOpts?.({ contextWindow: 20_000 }, 'createAgent')).toThrow(/option "keepRecentTokens".*contextWindow 20000/);
    expect(() => manager.validateOpts?.({ reserveTokens: 1000 }, 'createAgent')).not.toThrow();
  });

  it('refuses opts that are not an object of options, saying what they are (before: a string was read as its characters, "Unrecognized key: \\"0\\"", and 5 or null passed as no options)', async () => {
    const manager = WindowManager({ strategy: 'keepTail', ...config });
    for (const [opts, what] of [['keepTail', 'a string \\("keepTail"\\)'], [5, '5'], [null, 'null'], [[{ reserveTokens: 1 }], 'an array']] as const) {
      const message = new RegExp(`^createAgent \\(compactorOptions\\): is invalid: expected an object of WindowManager options \\(or none\\), not ${what}$`);
      expect(() => manager.validateOpts?.(opts as never, 'createAgent (compactorOptions)'), String(opts)).toThrow(message);
      const { meta } = await manager.maybeCompact({ path: pathOf(...toolLoop(30)) }, ctx(), opts as never);
      expect(meta).toMatchObject({ compacted: false, error: expect.any(CompactionConfigError) });
    }
    expect(() => manager.validateOpts?.(undefined, 'createAgent')).not.toThrow();
    expect(() => manager.validateOpts?.({}, 'createAgent')).not.toThrow();
  });

  it('names newId or now when what they return cannot stamp an entry, and appends nothing (before: "Invalid time value", "….toISOString is not a function", or a breach that did not name the option)', async () => {
    const cases: Array<[Partial<WindowManagerInput>, string]> = [
      [{ newId: () => '' }, 'option "newId" is invalid: it returned a string \\(""\\), not a non-empty string'],
      [{ newId: () => 7 as never }, 'option "newId" is invalid: it returned 7, not a non-empty string'],
      [{ now: () => new Date('not a date') }, 'option "now" is invalid: it returned an invalid Date, not a Date of a moment'],
      [{ now: () => '2026-02-01' as never }, 'option "now" is invalid: it returned a string \\("2026-02-01"\\), not a Date'],
    ];
    for (const [over, message] of cases) {
      const manager = WindowManager({ strategy: 'keepTail', ...config, ...over });
      const { acc, meta } = await manager.maybeCompact({ path: pathOf(...toolLoop(30)) }, ctx());
      expect(meta, message).toMatchObject({ compacted: false, appended: [], error: expect.any(CompactionConfigError) });
      if (!meta.compacted) expect(meta.error?.message).toMatch(new RegExp(`^WindowManager\\.maybeCompact: ${message}$`));
      expect(acc.path).toHaveLength(61);
    }
  });

  it('says one bound for a keepRecentTokens below 1: at least 1, never ">=0" and ">=1" together', () => {
    for (const keepRecentTokens of [-1, 0]) {
      expect(() => WindowManager({ strategy: 'keepTail', keepRecentTokens })).toThrow(
        /^WindowManager: option "keepRecentTokens" is invalid: Too small: expected number to be >=1$/,
      );
    }
    expect(() => compactionSettings({ keepRecentTokens: -1 })).toThrow(/^compactionSettings: option "keepRecentTokens" is invalid: Too small: expected number to be >=1$/);
  });

  it('refuses a summarizer whose contextWindow or model is not what it says, naming the option', () => {
    const summarize = async () => ({ text: 'x' });
    for (const contextWindow of [Number.NaN, Number('8k'), '8000', -1, 0, 1.5, Number.POSITIVE_INFINITY]) {
      const summarizer = { summarize, contextWindow } as unknown as Summarizer;
      expect(() => WindowManager({ strategy: 'summarize', summarizer })).toThrow(CompactionConfigError);
      expect(() => WindowManager({ strategy: 'summarize', summarizer })).toThrow(/^WindowManager: option "summarizer.contextWindow" is invalid: .*positive whole number/);
    }
    expect(() => WindowManager({ strategy: 'summarize', summarizer: { summarize, model: 42 } as unknown as Summarizer })).toThrow(
      /^WindowManager: option "summarizer.model" is invalid/,
    );
    expect(() => WindowManager({ strategy: 'summarize', summarizer: { summarize, contextWindow: 8000, model: 'llama' } })).not.toThrow();
  });
});
