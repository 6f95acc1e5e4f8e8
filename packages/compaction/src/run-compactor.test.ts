import type { Entry } from '@tiller/core';
import { CompactionMeta as CoreCompactionMeta } from '@tiller/core';
import { scriptedSummarizer } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { assistant, call, type Draft, pathOf, result, user, words } from '../test/paths.js';
import type { CompactionContext, CompactionMeta, Compactor } from './compactor.js';
import { NoOpCompactor } from './compactor.js';
import { runCompactor } from './run-compactor.js';
import { WindowManager } from './window-manager.js';

function toolLoop(rounds: number, size = 1000): Draft[] {
  const drafts: Draft[] = [user('refactor the parser', 'u')];
  for (let k = 0; k < rounds; k++) {
    drafts.push(assistant([call(`c${k}`, 'read', { path: `src/p${k}.ts` })], { id: `a${k}` }));
    drafts.push(result(`c${k}`, words(size), 'read', `r${k}`));
  }
  return drafts;
}

const ctx: CompactionContext = { model: 'test-model', window: 30_000, promptTokens: 500, midRound: false };
const config = { reserveTokens: 4000, keepRecentTokens: 8000 };
const ids = (entries: readonly Entry[]) => entries.map((e) => e.id);

describe('runCompactor', () => {
  it('gives the core plain JSON: the error as its message and code, the dropped entries as ids', async () => {
    const path = pathOf(...toolLoop(30));
    const done = await runCompactor(WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), ...config }), { path }, ctx);
    expect(JSON.parse(JSON.stringify(done.meta))).toEqual(done.meta);
    expect(CoreCompactionMeta.parse(done.meta)).toEqual(done.meta);
    expect(done.meta).toMatchObject({ compacted: true, strategy: 'summarize', droppedEntryIds: expect.arrayContaining(['u', 'a0']) });
    expect(done.appended).toHaveLength(1);
    expect(done.breach).toBeUndefined();
    const failed = await runCompactor(WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer({ reply: () => '' }), ...config }), { path }, ctx);
    expect(failed.meta).toEqual({ compacted: false, error: 'the summarizer returned an empty summary (turn-prefix)', errorCode: 'summarization_failed' });
    expect(failed.appended).toEqual([]);
    expect((await runCompactor(NoOpCompactor, { path }, ctx)).meta).toEqual({ compacted: false });
  });

  it('runs the afterCompact hooks, in order, once told (the host has appended the entries), only when entries left the context', async () => {
    const seen: string[] = [];
    const hooks = { afterCompact: [(meta: CompactionMeta) => void seen.push(`first ${meta.appended.length}`), async () => void seen.push('second')] };
    const path = pathOf(...toolLoop(30));
    expect(await (await runCompactor(WindowManager({ strategy: 'clearToolResults', ...config }), { path }, ctx, { hooks })).tellHooks()).toEqual([]);
    expect(await (await runCompactor(NoOpCompactor, { path }, ctx, { hooks })).tellHooks()).toEqual([]);
    expect(seen).toEqual([]);
    const run = await runCompactor(WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), ...config }), { path }, ctx, { hooks });
    expect(seen).toEqual([]);
    expect(await run.tellHooks()).toEqual([]);
    expect(seen).toEqual(['first 1', 'second']);
    // Told once.
    await run.tellHooks();
    expect(seen).toEqual(['first 1', 'second']);
  });

  it('leaves a hook running once the signal it is told with aborts, says so, and runs none after it; the compaction stands (before: the time limit that stopped a slow hook threw the finished compaction away)', async () => {
    const seen: string[] = [];
    const hooks = { afterCompact: [() => void seen.push('first'), () => new Promise<void>(() => {}), () => void seen.push('third'), () => void seen.push('fourth')] };
    const path = pathOf(...toolLoop(30));
    const run = await runCompactor(WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), ...config }), { path }, ctx, { hooks });
    expect(run.meta.compacted).toBe(true);
    const limit = new AbortController();
    const told = run.tellHooks(limit.signal);
    await new Promise((resolve) => setTimeout(resolve, 5));
    limit.abort(new DOMException('the hooks did not finish within 5 ms', 'TimeoutError'));
    expect(await told).toEqual(['afterCompact[1] was left running, and the 2 hooks after it not run: the hooks did not finish within 5 ms; the compaction stands']);
    expect(seen).toEqual(['first']);
    expect(run.appended).toHaveLength(1);
    // A signal aborted already runs none, and says so.
    const again = await runCompactor(WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), ...config }), { path }, ctx, { hooks });
    expect(await again.tellHooks(AbortSignal.abort('the turn was aborted'))).toEqual(['afterCompact[0] and the 3 hooks after it were not run: the turn was aborted; the compaction stands']);
    expect(seen).toEqual(['first']);
  });

  it('tells no hook of a compaction made after its signal aborted: the shell has left it behind and keeps none of it', async () => {
    // Before: a compactor that ignored its signal and finished after the turn's abort or its time
    // limit had its hooks told of a compaction the shell then threw away.
    const seen: string[] = [];
    const controller = new AbortController();
    const summarize = WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), ...config });
    const late: Compactor<undefined> = {
      name: 'late',
      maybeCompact: async (acc, lentCtx) => {
        controller.abort(new Error('stopped'));
        return summarize.maybeCompact(acc, { ...lentCtx, signal: undefined });
      },
    };
    const path = pathOf(...toolLoop(30));
    const run = await runCompactor(late, { path }, { ...ctx, signal: controller.signal }, { hooks: { afterCompact: [() => void seen.push('told')] } });
    expect(run.meta.compacted).toBe(true);
    expect(await run.tellHooks()).toEqual([]);
    expect(seen).toEqual([]);
    await (await runCompactor(summarize, { path }, ctx, { hooks: { afterCompact: [() => void seen.push('told')] } })).tellHooks();
    expect(seen).toEqual(['told']);
  });

  it('keeps the compaction when an afterCompact hook throws, runs the hooks after it, and says which one failed (before: the throw went up and the compaction was lost)', async () => {
    const seen: string[] = [];
    const hooks = {
      afterCompact: [
        () => {
          throw new Error('metrics down');
        },
        async () => Promise.reject('a string'),
        () => void seen.push('third'),
      ],
    };
    const path = pathOf(...toolLoop(30));
    const run = await runCompactor(WindowManager({ strategy: 'summarize', summarizer: scriptedSummarizer(), ...config }), { path }, ctx, { hooks });
    expect(run.meta).toMatchObject({ compacted: true });
    expect(run.appended).toHaveLength(1);
    expect(run.breach).toBeUndefined();
    expect(await run.tellHooks()).toEqual(['afterCompact[0] threw: metrics down; the compaction stands', 'afterCompact[1] threw: a string; the compaction stands']);
    expect(seen).toEqual(['third']);
    expect(await (await runCompactor(NoOpCompactor, { path }, ctx, { hooks })).tellHooks()).toEqual([]);
  });

  it('carries the error of a failed compaction into the meta whatever it is, a string included (before: a string error was dropped, and the journal said nothing failed)', async () => {
    const path = pathOf(...toolLoop(2));
    const failing = (error: unknown): Compactor => ({ name: 'failing', maybeCompact: async (acc) => ({ acc, meta: { compacted: false, appended: [], error: error as Error } }) });
    expect((await runCompactor(failing('my summarizer is down'), { path }, ctx)).meta).toEqual({ compacted: false, error: 'my summarizer is down' });
    expect((await runCompactor(failing({ reason: 'quota' }), { path }, ctx)).meta).toEqual({ compacted: false, error: '{"reason":"quota"}' });
    expect((await runCompactor(failing(Object.assign(new Error('slow'), { code: 'timeout' })), { path }, ctx)).meta).toEqual({ compacted: false, error: 'slow', errorCode: 'timeout' });
    expect((await runCompactor(failing(new RangeError('bad')), { path }, ctx)).meta).toEqual({ compacted: false, error: 'bad', errorCode: 'RangeError' });
  });

  it('turns a compactor that throws into a breach of its contract and a meta that say so, and compacts nothing', async () => {
    // The contract: a failed compaction is reported in the meta, never thrown. A throw is a bug the host must hear of.
    const throws: Compactor = { name: 'brittle', maybeCompact: async () => Promise.reject(new Error('out of memory')) };
    const run = await runCompactor(throws, { path: pathOf(...toolLoop(2)) }, ctx);
    const breach = 'the compactor brittle threw: out of memory; it compacted nothing';
    expect(run).toEqual({ meta: { compacted: false, error: breach }, appended: [], ledger: undefined, breach, tellHooks: expect.any(Function) });
  });

  it('discards the result of a compactor that changed the path it was given, and says how', async () => {
    const path = pathOf(...toolLoop(3));
    const dropsFirst: Compactor = {
      name: 'rewriter',
      maybeCompact: async (acc) => ({ acc: { path: acc.path.slice(1) }, meta: { compacted: false, appended: [] } }),
    };
    const run = await runCompactor(dropsFirst, { path }, ctx);
    expect(run.breach).toMatch(/the compactor rewriter broke its contract: its path has 6 entries, expected 7 plus the 0 it appended/);
    expect(run.meta).toMatchObject({ compacted: false, error: run.breach });
    const extra = pathOf(...toolLoop(1)).at(-1)!;
    const hides: Compactor = {
      name: 'hider',
      maybeCompact: async (acc) => ({ acc: { path: [...acc.path.slice(0, -1), extra, acc.path.at(-1)!] }, meta: { compacted: false, appended: [extra] } }),
    };
    expect((await runCompactor(hides, { path }, ctx)).breach).toMatch(/it changed the entries it was given/);
    expect(ids((await runCompactor(NoOpCompactor, { path }, ctx)).appended)).toEqual([]);
  });

  it('hands the compactor a path it cannot change in place, so one that splices, pushes or assigns changes nothing and breaks its contract (before: the shared entry list lost what it cut, and the agent stopped for good)', async () => {
    const mutations: Array<[string, (path: Entry[]) => unknown]> = [
      ['splice', (path) => path.splice(0, 4)],
      ['push', (path) => path.push(path[0]!)],
      ['assign', (path) => (path[1] = path[0]!)],
      ['length', (path) => (path.length = 2)],
      ['sort', (path) => path.reverse()],
    ];
    for (const [label, mutate] of mutations) {
      const path = pathOf(...toolLoop(3));
      const ids = path.map((e) => e.id);
      const naive: Compactor = {
        name: 'naive',
        maybeCompact: async (acc) => {
          mutate(acc.path as Entry[]);
          return { acc, meta: { compacted: false, appended: [] } };
        },
      };
      const run = await runCompactor(naive, { path }, ctx);
      expect(path.map((e) => e.id), label).toEqual(ids);
      expect(run.breach, label).toMatch(/^the compactor naive threw: the path a compactor is handed cannot be changed in place \(it compacts by appending: return \{acc: \{path: \[\.\.\.acc\.path, \.\.\.appended\]\}\}\); it compacted nothing$/);
    }
    // Reading it is as reading the array.
    const path = pathOf(...toolLoop(3));
    const reader: Compactor = {
      name: 'reader',
      maybeCompact: async (acc) => {
        expect(Array.isArray(acc.path)).toBe(true);
        expect([acc.path.length, acc.path.at(-1)?.id, acc.path.slice(1, 2)[0]?.id, [...acc.path].length]).toEqual([7, 'r2', 'a0', 7]);
        return { acc, meta: { compacted: false, appended: [] } };
      },
    };
    expect((await runCompactor(reader, { path }, ctx)).breach).toBeUndefined();
  });

  it('compacts nothing when a compactor throws a value that cannot even be turned into text, and says so', async () => {
    const path = pathOf(...toolLoop(1));
    const throwing: Compactor = {
      name: 'odd',
      maybeCompact: async () => {
        throw Object.create(null);
      },
    };
    expect(await runCompactor(throwing, { path }, ctx)).toMatchObject({ meta: { compacted: false, error: 'the compactor odd threw: {}; it compacted nothing' }, appended: [] });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const throwingCycle: Compactor = {
      name: 'odd',
      maybeCompact: async () => {
        throw cyclic;
      },
    };
    expect((await runCompactor(throwingCycle, { path }, ctx)).meta).toMatchObject({ error: 'the compactor odd threw: a thrown object that cannot be described; it compacted nothing' });
  });

  it('discards a result that is not {acc, meta} as the contract says (a compactor written in JavaScript), and says what it got', async () => {
    const path = pathOf(...toolLoop(2));
    const answering = (name: string, outcome: unknown): Compactor => ({ name, maybeCompact: async () => outcome as never });
    const done = { compacted: true, appended: [], strategy: 'window', tokensBefore: 10, tokensAfter: 10, tokensRemoved: 0, dropped: [], clearedEntryIds: [], midRound: false };
    const cases: Array<[unknown, RegExp]> = [
      [undefined, /returned undefined, expected \{acc, meta\}/],
      [{ acc: { path }, meta: { compacted: false } }, /meta\.appended is not an array/],
      [{ acc: { path }, meta: { appended: [] } }, /meta\.compacted is not a boolean/],
      [{ meta: { compacted: false, appended: [] } }, /acc\.path is not an array/],
      // Compacted: the fields the journal and the afterCompact hooks read.
      [{ acc: { path }, meta: { ...done, dropped: undefined } }, /meta\.dropped is not an array of entries/],
      [{ acc: { path }, meta: { ...done, dropped: [null] } }, /meta\.dropped is not an array of entries/],
      [{ acc: { path }, meta: { ...done, clearedEntryIds: [7] } }, /meta\.clearedEntryIds is not an array of entry ids/],
      [{ acc: { path }, meta: { ...done, tokensAfter: '12' } }, /meta\.tokensAfter is not a number/],
      [{ acc: { path }, meta: { ...done, midRound: undefined } }, /meta\.midRound is not a boolean/],
    ];
    for (const [outcome, message] of cases) {
      const run = await runCompactor(answering('loose', outcome), { path }, ctx);
      expect(run.breach).toMatch(/^the compactor loose broke its contract: /);
      expect(run.breach).toMatch(message);
      expect(run).toMatchObject({ meta: { compacted: false, error: run.breach }, appended: [] });
    }
  });

  describe('the entries a compactor appends', () => {
    /** A compactor that appends what `make` builds from the path, and says it compacted. */
    const appending = (name: string, make: (path: readonly Entry[]) => unknown[], compacted = true): Compactor => ({
      name,
      maybeCompact: async (acc) => {
        const appended = make(acc.path) as Entry[];
        const meta = compacted
          ? { compacted: true as const, appended, strategy: name, tokensBefore: 100, tokensAfter: 10, tokensRemoved: 90, dropped: acc.path.slice(0, 1), clearedEntryIds: [], midRound: false }
          : { compacted: false as const, appended };
        return { acc: { path: [...acc.path, ...appended] }, meta };
      },
    });
    const compaction = (path: readonly Entry[], over: Record<string, unknown> = {}) => ({
      kind: 'compaction',
      id: 'c1',
      parentId: path.at(-1)!.id,
      at: '2026-01-01T00:00:01.000Z',
      summary: 'earlier work',
      firstKeptEntryId: path.at(-2)!.id,
      tokensBefore: 100,
      tokensAfter: 10,
      // What `appending` reports in meta.dropped.
      compactedEntryIds: [path[0]!.id],
      ...over,
    });

    it('discards entries the session log or the turn would refuse, naming the entry and the field (before: the turn failed, or the agent stopped for good on a repeated id)', async () => {
      const path = pathOf(...toolLoop(3));
      const cases: Array<[string, (path: readonly Entry[]) => unknown[], RegExp]> = [
        ['a summary that is a number', (p) => [compaction(p, { summary: 42 })], /appended\[0\] \(id "c1"\) is not an entry: summary: expected a string/],
        ['not an object', () => ['a compaction'], /appended\[0\] is not an entry: \(the entry\): expected an object/],
        ['a parent that is not the leaf', (p) => [compaction(p, { parentId: p[0]!.id })], /appended\[0\] \(id "c1"\) has parent "u", expected "r2": a compactor only appends to the end of the path/],
        ['no parent', (p) => [compaction(p, { parentId: null })], /appended\[0\] \(id "c1"\) has parent null, expected "r2"/],
        ['an id already in the path', (p) => [compaction(p, { id: 'a0' })], /appended\[0\] reuses the id "a0" of an entry in the path/],
        ['one id twice', (p) => [compaction(p), compaction(p, { parentId: 'c1' })], /appended\[1\] reuses the id "c1" of appended\[0\]/],
      ];
      for (const [label, make, message] of cases) {
        const run = await runCompactor(appending('sloppy', make), { path }, ctx);
        expect(run.breach, label).toMatch(/^the compactor sloppy broke its contract: /);
        expect(run.breach, label).toMatch(message);
        expect(run, label).toMatchObject({ meta: { compacted: false, error: run.breach }, appended: [], ledger: undefined });
      }
    });

    it('looks an appended id up in the session log when given one, so an id on another branch is caught, without reading the path (before: only the path was read, and the log then refused the append)', async () => {
      const path = pathOf(...toolLoop(3));
      const otherBranch = new Set([...path.map((e) => e.id), 'b1']);
      const run = await runCompactor(appending('reusing', (p) => [compaction(p, { id: 'b1' })]), { path }, ctx, { log: otherBranch });
      expect(run.breach).toBe('the compactor reusing broke its contract: appended[0] reuses the id "b1" of an entry on another branch of the session log; its result was discarded');
      expect(run.appended).toEqual([]);
      expect((await runCompactor(appending('reusing', (p) => [compaction(p, { id: 'a1' })]), { path }, ctx, { log: otherBranch })).breach).toMatch(/appended\[0\] reuses the id "a1" of an entry in the path;/);
      expect((await runCompactor(appending('fresh', (p) => [compaction(p)]), { path }, ctx, { log: otherBranch })).breach).toBeUndefined();
      // The log's index answers: the path is read at its end only, however long it is.
      const long = pathOf(...toolLoop(2_000));
      let reads = 0;
      const counted = new Proxy(long, { get: (target, key, receiver) => (typeof key === 'string' && /^\d+$/.test(key) && reads++, Reflect.get(target, key, receiver)) });
      // It builds its path from the array itself: only runCompactor's reads are counted.
      const entry = compaction(long) as Entry;
      const meta = { compacted: true as const, appended: [entry], strategy: 'fresh', tokensBefore: 100, tokensAfter: 10, tokensRemoved: 90, dropped: long.slice(0, 1), clearedEntryIds: [], midRound: false };
      const fresh: Compactor = { name: 'fresh', maybeCompact: async () => ({ acc: { path: [...long, entry] }, meta }) };
      const log = new Set(long.map((e) => e.id));
      expect((await runCompactor(fresh, { path: counted }, ctx, { log })).breach).toBeUndefined();
      expect(reads).toBeLessThan(20);
      reads = 0;
      expect((await runCompactor(fresh, { path: counted }, ctx)).breach).toBeUndefined();
      expect(reads).toBeGreaterThanOrEqual(long.length);
    });

    it('refuses a log that cannot say whether it has an id, naming the option', async () => {
      const path = pathOf(...toolLoop(1));
      for (const log of [{}, 'ids', null]) {
        await expect(runCompactor(NoOpCompactor, { path }, ctx, { log: log as never })).rejects.toThrow(
          /^runCompactor: option "log" is invalid: expected the session log, or any object with has\(id\) \(a Set of the ids\), not /,
        );
      }
    });

    it('discards entries appended by a compactor that says it did not compact (before: they joined the log while the meta said nothing happened)', async () => {
      const path = pathOf(...toolLoop(3));
      const run = await runCompactor(appending('quiet', (p) => [compaction(p)], false), { path }, ctx);
      expect(run.breach).toMatch(/the compactor quiet broke its contract: it appended 1 entry but its meta says compacted: false/);
      expect(run.appended).toEqual([]);
    });

    it('discards a meta that says compacted: true when nothing was appended (before: the hooks ran, and the journal and the events told of a compaction that changed nothing)', async () => {
      const seen: string[] = [];
      const hooks = { afterCompact: [() => void seen.push('told')] };
      const run = await runCompactor(appending('boastful', () => []), { path: pathOf(...toolLoop(3)) }, ctx, { hooks });
      await run.tellHooks();
      expect(run.breach).toMatch(/the compactor boastful broke its contract: its meta says compacted: true but it appended nothing \(a compaction appends its entry; say compacted: false otherwise\)/);
      expect(run.meta).toMatchObject({ compacted: false, error: run.breach });
      expect(seen).toEqual([]);
    });

    it('discards a meta whose dropped entries are not the ones its compaction entries list in compactedEntryIds (before: the journal, the events and the afterCompact hooks were told of other entries than the log records)', async () => {
      const path = pathOf(...toolLoop(3));
      const droppedAs = (name: string, dropped: (path: readonly Entry[]) => Entry[], make: (path: readonly Entry[]) => unknown[]): Compactor => ({
        name,
        maybeCompact: async (acc) => {
          const appended = make(acc.path) as Entry[];
          const meta = { compacted: true as const, appended, strategy: name, tokensBefore: 100, tokensAfter: 10, tokensRemoved: 90, dropped: dropped(acc.path), clearedEntryIds: [], midRound: false };
          return { acc: { path: [...acc.path, ...appended] }, meta };
        },
      });
      const seen: string[] = [];
      const hooks = { afterCompact: [() => void seen.push('told')] };
      const cases: Array<[string, (path: readonly Entry[]) => Entry[], (path: readonly Entry[]) => unknown[], RegExp]> = [
        [
          'entries said dropped that the entry does not list',
          (p) => p.slice(0, 2),
          (p) => [compaction(p)],
          /meta\.dropped lists 2 entries \("u", "a0"\), but the compaction entries it appended list 1 in compactedEntryIds \("u"\): both name the entries that left the context, in the same order;/,
        ],
        [
          'nothing said dropped while the entry lists some (no hook would run)',
          () => [],
          (p) => [compaction(p)],
          /meta\.dropped lists 0 entries \(none\), but the compaction entries it appended list 1 in compactedEntryIds \("u"\)/,
        ],
        ['other entries', (p) => [p[1]!], (p) => [compaction(p)], /meta\.dropped\[0\] is "a0", but appended\[0\] \(id "c1"\) lists "u" there in compactedEntryIds: both name the entries that left the context, in the same order;/],
        [
          'another order',
          (p) => [p[1]!, p[0]!],
          (p) => [compaction(p, { compactedEntryIds: ['u', 'a0'] })],
          /meta\.dropped\[0\] is "a0", but appended\[0\] \(id "c1"\) lists "u" there/,
        ],
        [
          'entries dropped with no compaction entry appended',
          (p) => p.slice(0, 1),
          (p) => [{ kind: 'custom', id: 'n1', parentId: p.at(-1)!.id, at: '2026-01-01T00:00:01.000Z', customType: 'note', data: {} }],
          /meta\.dropped lists 1 entry \("u"\), but the compaction entries it appended list 0 in compactedEntryIds \(none\)/,
        ],
      ];
      for (const [label, dropped, make, message] of cases) {
        const run = await runCompactor(droppedAs('miscounting', dropped, make), { path }, ctx, { hooks });
        await run.tellHooks();
        expect(run.breach, label).toMatch(/^the compactor miscounting broke its contract: /);
        expect(run.breach, label).toMatch(message);
        expect(run.breach, label).toMatch(/; its result was discarded$/);
        expect(run, label).toMatchObject({ meta: { compacted: false, error: run.breach }, appended: [], ledger: undefined });
      }
      expect(seen).toEqual([]);
      // Two compaction entries: their lists, one after the other.
      const twice = (p: readonly Entry[]) => [compaction(p, { compactedEntryIds: ['u'] }), compaction(p, { id: 'c2', parentId: 'c1', compactedEntryIds: ['a0'] })];
      expect((await runCompactor(droppedAs('twice', (p) => p.slice(0, 2), twice), { path }, ctx)).breach).toBeUndefined();
      const agreeing = await runCompactor(droppedAs('agreeing', (p) => p.slice(0, 1), (p) => [compaction(p)]), { path }, ctx, { hooks });
      expect(agreeing.breach).toBeUndefined();
      await agreeing.tellHooks();
      expect(seen).toEqual(['told']);
    });

    it('discards a compaction entry that keeps from an entry not in the path (before: the model was sent the summary alone, the turn it was in included, with no word)', async () => {
      const path = pathOf(...toolLoop(3));
      for (const [label, over] of [
        ['a mistyped id', { firstKeptEntryId: 'r-2' }],
        ['its own id', { firstKeptEntryId: 'c1' }],
      ] as const) {
        const run = await runCompactor(appending('typo', (p) => [compaction(p, over)]), { path }, ctx);
        expect(run.breach, label).toMatch(
          new RegExp(`appended\\[0\\] \\(id "c1"\\) keeps from "${over.firstKeptEntryId}", which is not an entry of the path before it: the model would see the summary alone`),
        );
        expect(run.appended, label).toEqual([]);
      }
      // The last reply, or the first entry, are entries of the path.
      for (const firstKeptEntryId of ['a2', 'u']) {
        expect((await runCompactor(appending('fine', (p) => [compaction(p, { firstKeptEntryId })]), { path }, ctx)).breach).toBeUndefined();
      }
    });

    it('discards a compaction entry that keeps a tool result and drops its call (before: the result was sent as a note with its call gone, with no word)', async () => {
      const path = pathOf(user('read three files', 'u'), assistant([call('c0', 'read', { path: 'a' }), call('c1', 'read', { path: 'b' })], { id: 'a0' }), result('c0', 'A', 'read', 'r0'), result('c1', 'B', 'read', 'r1'), assistant('done', { id: 'a1' }));
      for (const [firstKeptEntryId, callId] of [['r0', 'c0'], ['r1', 'c1']]) {
        const run = await runCompactor(appending('splitter', (p) => [compaction(p, { firstKeptEntryId })]), { path }, ctx);
        expect(run.breach).toMatch(new RegExp(`appended\\[0\\] \\(id "c1"\\) keeps from "${firstKeptEntryId}", inside a tool batch: the result of call "${callId}" \\(read\\) would stay while its call \\(entry "a0"\\) leaves the context`));
        expect(run.appended).toEqual([]);
      }
      for (const firstKeptEntryId of ['a0', 'a1', 'u']) {
        expect((await runCompactor(appending('fine', (p) => [compaction(p, { firstKeptEntryId })]), { path }, ctx)).breach).toBeUndefined();
      }
    });
  });
});
