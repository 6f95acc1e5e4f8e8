import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Compactor, compactionEntry, createTokenLedger, WindowManager } from '@tiller/compaction';
import type { CompactionEntry, Entry } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Agent, AgentClosedError, type AgentEvent, type AgentOptions, createAgent, defineTool, memoryJournal, modelSummarizer } from '../src/index.js';
import { createSessionLog, MemoryStore } from '@tiller/session';
import { scriptedModel, type ScriptStep } from '@tiller/testing';
import { nextEvent, recordEvents } from './helpers.js';

const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page of a long document.',
  input: z.object({ page: z.number().int() }),
  execute: ({ page }) => `page ${page}: ${'lorem ipsum '.repeat(80)}`,
});

/** A model that reads page after page, then answers. */
function readingModel(pages: number, contextWindow: number) {
  const script: ScriptStep[] = Array.from({ length: pages }, (_, i) => ({ toolCalls: [{ name: 'read_page', args: { page: i + 1 } }] }));
  script.push({ text: 'read it all' });
  return scriptedModel(script, { contextWindow });
}

/** An agent that reads 14 pages under a 2,000-token window, compacting (keepTail) between rounds, with these hooks. */
function compactingAgent(hooks: NonNullable<AgentOptions['hooks']>, limits: NonNullable<AgentOptions['limits']> = {}, more: Partial<AgentOptions> = {}) {
  const window = 2_000;
  return createAgent({
    model: readingModel(14, window),
    tools: [readPage],
    compactor: WindowManager({ strategy: 'keepTail', contextWindow: window, reserveTokens: 600, keepRecentTokens: 500 }),
    hooks,
    limits: { maxIterations: 20, ...limits },
    ...more,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('compaction through the shell', () => {
  it('counts the context the same whether its size was first asked for at the start or mid-session', async () => {
    const sizes = async (listenFrom: number) => {
      const script: ScriptStep[] = [1, 2, 3].flatMap((page) => [{ toolCalls: [{ name: 'read_page', args: { page } }] }, { text: `read page ${page}` }]);
      const agent = createAgent({ model: scriptedModel(script), tools: [readPage] });
      const seen: number[] = [];
      for (let turn = 0; turn < 3; turn++) {
        if (turn === listenFrom) agent.subscribe((e) => void (e.type === 'compaction.started' && seen.push(e.tokensBefore)));
        expect(await agent.prompt(`turn ${turn}`)).toMatchObject({ status: 'completed' });
      }
      return seen;
    };
    const fromStart = await sizes(0);
    const fromLastTurn = await sizes(2);
    expect(fromLastTurn.length).toBeGreaterThan(0);
    expect(fromLastTurn).toEqual(fromStart.slice(-fromLastTurn.length));
  });

  it('WindowManager compacts inside a long tool loop, so the turn never outgrows the window', async () => {
    const window = 2_000;
    const model = readingModel(14, window);
    const afterCompact: number[] = [];
    const agent = createAgent({
      model,
      tools: [readPage],
      compactor: WindowManager({ strategy: 'keepTail', contextWindow: window, reserveTokens: 600, keepRecentTokens: 500 }),
      hooks: { afterCompact: [(meta) => void afterCompact.push(meta.tokensRemoved)] },
      limits: { maxIterations: 20 },
    });
    const events = recordEvents(agent);
    const outcome = await agent.prompt('read the whole document');

    expect(outcome).toMatchObject({ status: 'completed', iterations: 14 });
    const finished = events.filter((e): e is Extract<AgentEvent, { type: 'compaction.finished' }> => e.type === 'compaction.finished');
    const compacted = finished.filter((e) => e.meta.compacted);
    expect(compacted.length).toBeGreaterThan(0);
    for (const { meta } of compacted) {
      expect(meta.midRound).toBe(true);
      expect(meta.tokensAfter).toBeLessThan(meta.tokensBefore!);
    }
    expect(afterCompact).toHaveLength(compacted.length);
    const started = events.filter((e): e is Extract<AgentEvent, { type: 'compaction.started' }> => e.type === 'compaction.started');
    expect(started).toHaveLength(finished.length);
    expect(started.every((e) => e.tokensBefore > 0)).toBe(true);
    // The window check before each call saw the compacted context: no call was refused as an overflow.
    expect(started.filter((e) => e.force)).toEqual([]);
    // Every request fitted: without compaction the last ones would have been about 3,500 tokens.
    expect(model.requests).toHaveLength(15);
    for (const request of model.requests) expect(JSON.stringify(request.messages).length / 4).toBeLessThan(window);
    // The log keeps everything: the compaction entries were appended, nothing was removed.
    const path = agent.session.path();
    expect(path.filter((e): e is CompactionEntry => e.kind === 'compaction')).toHaveLength(compacted.length);
    expect(path.filter((e) => e.kind === 'message' && e.message.role === 'toolResult')).toHaveLength(14);
  });

  it('summarizes with a model through modelSummarizer, and the agent sees the summary', async () => {
    const window = 2_000;
    const model = readingModel(10, window);
    const summaries = scriptedModel(Array.from({ length: 10 }, (_, i) => () => ({ text: `Summary ${i + 1}: pages read so far.` })), { id: 'scripted/summarizer' });
    const agent = createAgent({
      model,
      tools: [readPage],
      compactor: WindowManager({ strategy: 'summarize', summarizer: modelSummarizer(summaries), contextWindow: window, reserveTokens: 600, keepRecentTokens: 500 }),
      limits: { maxIterations: 20 },
    });
    expect(await agent.prompt('read it')).toMatchObject({ status: 'completed', iterations: 10 });
    const compactions = agent.session.path().filter((e): e is CompactionEntry => e.kind === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ summary: expect.stringContaining('Summary 1'), provenance: { strategy: 'summarize', summarizerModel: 'scripted/summarizer', midRound: true } });
    expect(summaries.requests[0]).toMatchObject({ toolNames: [], maxOutputTokens: expect.any(Number) });
    expect(summaries.requests[0]!.messages[0]!.content).toEqual(expect.stringContaining('page 1'));
    // The next call of the agent's model starts from the summary.
    const after = model.requests.find((r) => JSON.stringify(r.messages[0]).includes('Summary 1'));
    expect(after).toBeDefined();
  });

  it('discards the result of a compactor that rewrote the log, and the turn goes on untouched', async () => {
    const rewriting: Compactor<unknown> = {
      name: 'rewriting',
      maybeCompact: async (acc) => ({ acc: { path: acc.path.slice(1) }, meta: { compacted: false, appended: [] } }),
    };
    const agent = createAgent({ model: scriptedModel([{ text: 'fine' }, { text: 'still fine' }]), compactor: rewriting });
    const events = recordEvents(agent);
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    expect(await agent.prompt('second')).toMatchObject({ status: 'completed' });
    const errors = events.filter((e) => e.type === 'shell.error');
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ where: 'compaction', message: expect.stringMatching(/rewriting broke its contract/) });
    expect(events.find((e) => e.type === 'compaction.finished' && e.meta.error)).toBeDefined();
    expect(agent.session.size).toBe(4);
  });

  it('says what was missing when a compactor returns less than {acc, meta}, and the turn goes on (before: the turn ended "aborted" with a TypeError)', async () => {
    const loose = { name: 'loose', maybeCompact: async (acc: unknown) => ({ acc, meta: { compacted: false } }) } as unknown as Compactor<unknown>;
    const agent = createAgent({ model: scriptedModel([{ text: 'fine' }]), compactor: loose });
    const events = recordEvents(agent);
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    expect(events.find((e) => e.type === 'shell.error')).toMatchObject({ where: 'compaction', message: expect.stringMatching(/the compactor loose broke its contract: meta\.appended is not an array/) });
  });

  it('reports a compactor that throws as a failed compaction and a breach of its contract, and goes on', async () => {
    const throwing: Compactor<unknown> = { name: 'throwing', maybeCompact: async () => { throw new Error('no summarizer'); } };
    const agent = createAgent({ model: scriptedModel([{ text: 'fine' }]), compactor: throwing });
    const events = recordEvents(agent);
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    const message = 'the compactor throwing threw: no summarizer; it compacted nothing';
    expect(events.find((e) => e.type === 'compaction.finished')).toMatchObject({ meta: { compacted: false, error: message } });
    expect(events.filter((e) => e.type === 'shell.error')).toMatchObject([{ where: 'compaction', message }]);
  });

  it('discards a compaction entry that repeats an id of the log or does not continue the path, and the agent goes on (before: the turn failed, or the agent stopped for good)', async () => {
    const appendsBadly = (name: string, fields: (path: readonly Entry[]) => Partial<CompactionEntry>): Compactor<unknown> => ({
      name,
      maybeCompact: async (acc, ctx) => {
        if (acc.path.length < 3) return { acc, meta: { compacted: false, appended: [] } };
        const entry = compactionEntry(
          { summary: 'earlier work', firstKeptEntryId: acc.path.at(-1)!.id, tokensBefore: 100, tokensAfter: 10, compactedEntryIds: [] },
          { id: 'compaction-1', parentId: acc.path.at(-1)!.id, at: new Date().toISOString() },
        );
        const appended = { ...entry, ...fields(acc.path) } as CompactionEntry;
        const meta = { compacted: true as const, appended: [appended], strategy: name, tokensBefore: 100, tokensAfter: 10, tokensRemoved: 90, dropped: [], clearedEntryIds: [], midRound: ctx.midRound };
        return { acc: { path: [...acc.path, appended] }, meta };
      },
    });
    for (const compactor of [appendsBadly('repeats', (path) => ({ id: path[0]!.id })), appendsBadly('roots', () => ({ parentId: null }))]) {
      const agent = createAgent({ model: scriptedModel([{ toolCalls: [{ name: 'read_page', args: { page: 1 } }] }, { text: 'read' }, { text: 'again' }]), tools: [readPage], compactor });
      const events = recordEvents(agent);
      expect(await agent.prompt('read page 1')).toMatchObject({ status: 'completed' });
      expect(await agent.prompt('and again')).toMatchObject({ status: 'completed' });
      expect(events.find((e) => e.type === 'shell.error')).toMatchObject({ where: 'compaction', message: expect.stringMatching(new RegExp(`the compactor ${compactor.name} broke its contract: appended\\[0\\]`)) });
      expect(agent.session.path().filter((e) => e.kind === 'compaction')).toEqual([]);
      expect(agent.session.size).toBe(6);
    }
  });

  it('discards a compaction entry that reuses the id of an entry on another branch of the log, and the agent goes on (before: the log refused the append and the agent stopped for good)', async () => {
    const session = createSessionLog(new MemoryStore());
    let taken: string | undefined;
    // Like a newId that repeats: the id of an entry the host's branch left behind.
    const reusing: Compactor<unknown> = {
      name: 'reusing',
      maybeCompact: async (acc, ctx) => {
        if (!taken || acc.path.length < 3) return { acc, meta: { compacted: false, appended: [] } };
        const entry = compactionEntry(
          { summary: 'earlier work', firstKeptEntryId: acc.path.at(-2)!.id, tokensBefore: 100, tokensAfter: 10, compactedEntryIds: [acc.path[0]!.id] },
          { id: taken, parentId: acc.path.at(-1)!.id, at: new Date().toISOString() },
        );
        const meta = { compacted: true as const, appended: [entry], strategy: 'reusing', tokensBefore: 100, tokensAfter: 10, tokensRemoved: 90, dropped: [acc.path[0]!], clearedEntryIds: [], midRound: ctx.midRound };
        return { acc: { path: [...acc.path, entry] }, meta };
      },
    };
    const model = scriptedModel([{ text: 'one' }, { toolCalls: [{ name: 'read_page', args: { page: 1 } }] }, { text: 'read' }, { text: 'three' }]);
    const agent = createAgent({ model, tools: [readPage], compactor: reusing, session });
    const events = recordEvents(agent);
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    taken = session.entries()[0]!.id;
    session.branch(null);
    expect(await agent.prompt('second, on a branch of its own')).toMatchObject({ status: 'completed' });
    expect(session.path().some((e) => e.id === taken)).toBe(false);
    expect(events.filter((e) => e.type === 'shell.error')).toMatchObject([
      { where: 'compaction', message: `the compactor reusing broke its contract: appended[0] reuses the id "${taken}" of an entry on another branch of the session log; its result was discarded` },
    ]);
    expect(session.entries().filter((e) => e.kind === 'compaction')).toEqual([]);
    expect(await agent.prompt('third')).toMatchObject({ status: 'completed' });
  });

  it('keeps a compaction whose afterCompact hook throws, says so, and the turn goes on (before: the turn was aborted and the compaction lost, at every boundary)', async () => {
    const agent = compactingAgent({
      afterCompact: [
        () => {
          throw new Error('metrics endpoint down');
        },
      ],
    });
    const events = recordEvents(agent);
    expect(await agent.prompt('read the whole document')).toMatchObject({ status: 'completed', iterations: 14 });
    const compactions = agent.session.path().filter((e) => e.kind === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    const errors = events.filter((e) => e.type === 'shell.error');
    expect(errors).toHaveLength(compactions.length);
    expect(errors[0]).toMatchObject({ where: 'afterCompact hook', message: 'afterCompact[0] threw: metrics endpoint down; the compaction stands' });
  });

  it('keeps a finished compaction whose afterCompact hook never settles, and says the hook was left running (before: the time limit covered the hook, so the compaction was stopped and never appended)', async () => {
    const agent = compactingAgent({ afterCompact: [() => new Promise<void>(() => {})] }, { compactionTimeoutMs: 100 });
    const events = recordEvents(agent);
    const timedOut = nextEvent(agent, 'shell.error');
    expect(await agent.prompt('read the whole document')).toMatchObject({ status: 'completed', iterations: 14 });
    const compactions = agent.session.path().filter((e) => e.kind === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    const finished = events.filter((e): e is Extract<AgentEvent, { type: 'compaction.finished' }> => e.type === 'compaction.finished');
    expect(finished.filter((e) => e.meta.compacted)).toHaveLength(compactions.length);
    expect(finished.filter((e) => e.meta.error)).toEqual([]);
    // The hooks got a time limit of their own, after the compaction.
    expect(await timedOut).toMatchObject({
      where: 'afterCompact hook',
      message: 'afterCompact[0] was left running: the afterCompact hooks did not finish within 100 ms (limits.compactionTimeoutMs); the compaction stands',
    });
    // Closing waits for the hooks running and queued, each to its own limit, and each is said.
    await agent.close();
    const errors = events.filter((e) => e.type === 'shell.error');
    expect(errors).toHaveLength(compactions.length);
    for (const error of errors) {
      expect(error).toMatchObject({
        where: 'afterCompact hook',
        message: 'afterCompact[0] was left running: the afterCompact hooks did not finish within 100 ms (limits.compactionTimeoutMs); the compaction stands',
      });
    }
  });

  it('tells every afterCompact hook of a compaction that is in the log, even when the turn is aborted meanwhile', async () => {
    let told!: (outcome: string) => void;
    const second = new Promise<string>((resolve) => (told = resolve));
    const agent: Agent = compactingAgent({
      afterCompact: [
        async () => {
          const ended = nextEvent(agent, 'turn.ended');
          void agent.abort('the host said stop');
          await ended;
        },
        () => told(agent.snapshot.context.lastOutcome?.status ?? 'none'),
      ],
    });
    const events = recordEvents(agent);
    expect(await agent.prompt('read the whole document')).toMatchObject({ status: 'aborted' });
    expect(await second).toBe('aborted');
    await agent.close();
    expect(agent.session.path().filter((e) => e.kind === 'compaction')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'shell.error')).toEqual([]);
  });

  it('tells the hooks of one compaction after those of the one before have ended, in order (before: a slow hook ran beside the next compaction\'s, out of order)', async () => {
    const told: string[] = [];
    let running = 0;
    let most = 0;
    const agent: Agent = compactingAgent({
      afterCompact: [
        async (meta) => {
          running++;
          most = Math.max(most, running);
          // Slower than a tool round, so the next compaction comes while this hook runs.
          await new Promise((resolve) => setTimeout(resolve, 30));
          told.push(meta.appended[0]!.id);
          running--;
        },
      ],
    });
    const events = recordEvents(agent);
    expect(await agent.prompt('read the whole document')).toMatchObject({ status: 'completed' });
    await agent.idle();
    while (running > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const compactions = events.flatMap((e) => (e.type === 'compaction.finished' && e.meta.compacted ? [e] : []));
    expect(compactions.length).toBeGreaterThan(1);
    expect(most).toBe(1);
    expect(told).toEqual(agent.session.entries().filter((e) => e.kind === 'compaction').map((e) => e.id));
    await agent.close();
  });

  it('tells the afterCompact hooks once the compaction entry is in the session log (before: they ran before it was appended)', async () => {
    const seen: boolean[] = [];
    const agent: Agent = compactingAgent({ afterCompact: [(meta) => void seen.push(meta.appended.every((entry) => agent.session.has(entry.id)))] });
    expect(await agent.prompt('read the whole document')).toMatchObject({ status: 'completed' });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(Boolean)).toBe(true);
  });

  it('stops a compactor that never answers and ignores its signal after limits.compactionTimeoutMs, and the turn goes on uncompacted (before: the turn waited for good)', async () => {
    let seen: AbortSignal | undefined;
    const hangs: Compactor<unknown> = {
      name: 'hangs',
      maybeCompact: (_acc, ctx) => {
        seen = ctx.signal;
        return new Promise(() => {});
      },
    };
    const agent = createAgent({ model: scriptedModel([{ text: 'fine' }]), compactor: hangs, limits: { compactionTimeoutMs: 50 } });
    const events = recordEvents(agent);
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    const message = 'the compactor hangs did not finish within 50 ms (limits.compactionTimeoutMs); it compacted nothing';
    expect(events.find((e) => e.type === 'compaction.finished')).toMatchObject({ meta: { compacted: false, error: message } });
    expect(events.filter((e) => e.type === 'shell.error')).toMatchObject([{ where: 'compaction', message }]);
    expect(seen?.aborted).toBe(true);
    expect((seen?.reason as Error).name).toBe('TimeoutError');
    expect(agent.session.size).toBe(2);
  });

  it('hands the next boundary a ledger that follows the path, though a compactor stopped by its time limit wrote to the one it was lent later', async () => {
    // Before: the stopped compactor still held the agent's own ledger; what it appended after the
    // limit put the ledger one entry off the path, and its estimate was reset by a compaction that never happened.
    const seen: Array<{ ledger: number; path: number }> = [];
    let calls = 0;
    const late: Compactor<unknown> = {
      name: 'late',
      maybeCompact: async (acc) => {
        calls += 1;
        if (calls === 1) {
          await new Promise((resolve) => setTimeout(resolve, 150));
          acc.ledger!.append(compactionEntry({ summary: 'never kept', firstKeptEntryId: acc.path.at(-1)!.id, tokensBefore: 1_000_000, tokensAfter: 10, compactedEntryIds: [] }, { id: 'ghost', parentId: acc.path.at(-1)!.id, at: '2026-01-01T00:00:00.000Z' }));
          return { acc, meta: { compacted: false, appended: [] } };
        }
        const fresh = createTokenLedger(acc.path);
        seen.push({ ledger: acc.ledger!.estimate().tokens, path: fresh.estimate().tokens });
        return { acc, meta: { compacted: false, appended: [] } };
      },
    };
    const slow = defineTool({ name: 'slow', description: 'takes a while', input: z.object({}), execute: () => new Promise((resolve) => setTimeout(() => resolve('x'.repeat(4_000)), 400)) });
    const agent = createAgent({ model: scriptedModel([{ toolCalls: [{ name: 'slow' }] }, { text: 'done' }]), tools: [slow], compactor: late, limits: { compactionTimeoutMs: 50 } });
    expect(await agent.prompt('go')).toMatchObject({ status: 'completed' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.ledger).toBe(seen[0]!.path);
    await agent.close();
  });

  it('keeps every entry when a compactor splices old entries out of the path it is handed, and the agent goes on (before: the shared entry list lost them and the agent stopped for good)', async () => {
    const splicing: Compactor<unknown> = {
      name: 'splicing',
      maybeCompact: async (acc) => {
        if (acc.path.length > 4) (acc.path as Entry[]).splice(0, 2);
        return { acc, meta: { compacted: false, appended: [] } };
      },
    };
    const script: ScriptStep[] = [1, 2, 3].map((page) => ({ toolCalls: [{ name: 'read_page', args: { page } }] }));
    const agent = createAgent({ model: scriptedModel([...script, { text: 'read' }, { text: 'again' }]), tools: [readPage], compactor: splicing });
    const events = recordEvents(agent);
    expect(await agent.prompt('read three pages')).toMatchObject({ status: 'completed' });
    expect(await agent.prompt('and again')).toMatchObject({ status: 'completed' });
    expect(events.find((e) => e.type === 'shell.error')).toMatchObject({ where: 'compaction', message: expect.stringMatching(/^the compactor splicing threw: the path a compactor is handed cannot be changed in place/) });
    expect(agent.session.size).toBe(10);
    expect(agent.session.path()).toHaveLength(10);
  });

  describe('closing waits for the afterCompact hooks', () => {
    it('a one-shot host that closes right after its prompt finds the file an async hook writes (before: close cut the hook short)', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tiller-hooks-'));
      try {
        const memory = join(dir, 'memory.md');
        const agent = compactingAgent({
          afterCompact: [
            async (meta) => {
              await sleep(40);
              await writeFile(memory, `compacted ${meta.appended.length} entries\n`, { flag: 'a' });
            },
          ],
        });
        const events = recordEvents(agent);
        expect(await agent.prompt('read the whole document')).toMatchObject({ status: 'completed' });
        await agent.close();
        const compactions = agent.session.entries().filter((e) => e.kind === 'compaction');
        expect(compactions.length).toBeGreaterThan(0);
        expect((await readFile(memory, 'utf8')).split('\n').filter(Boolean)).toHaveLength(compactions.length);
        expect(events.filter((e) => e.type === 'shell.error')).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('tells the hooks of every compaction still queued before close resolves, in the order of the log (before: those waiting their turn were not run)', async () => {
      const told: string[] = [];
      const agent = compactingAgent({
        afterCompact: [
          async (meta) => {
            // Slower than a tool round: several compactions' hooks wait their turn when the turn ends.
            await sleep(60);
            told.push(meta.appended[0]!.id);
          },
        ],
      });
      const events = recordEvents(agent);
      expect(await agent.prompt('read the whole document')).toMatchObject({ status: 'completed' });
      const compactions = agent.session.entries().filter((e) => e.kind === 'compaction').map((e) => e.id);
      expect(compactions.length).toBeGreaterThan(1);
      // When the turn ends, at most the first compactions' hooks have had their turn.
      expect(told.length).toBeLessThan(compactions.length);
      await agent.close();
      expect(told).toEqual(compactions);
      expect(events.filter((e) => e.type === 'shell.error')).toEqual([]);
    });

    it('close({keepTurn: true}) mid-turn waits for the hook of a compaction already in the log (a resume will not tell it again)', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tiller-hooks-'));
      try {
        const memory = join(dir, 'memory.md');
        let started!: () => void;
        const hookStarted = new Promise<void>((resolve) => (started = resolve));
        const agent = compactingAgent(
          {
            afterCompact: [
              async () => {
                started();
                await sleep(40);
                await writeFile(memory, 'summary kept\n', { flag: 'a' });
              },
            ],
          },
          {},
          { journal: memoryJournal() },
        );
        const outcome = agent.prompt('read the whole document').catch((error: unknown) => error);
        await hookStarted;
        await agent.close({ keepTurn: true });
        expect(AgentClosedError.isInstance(await outcome)).toBe(true);
        expect(await readFile(memory, 'utf8')).toMatch(/^summary kept\n/);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('a hook that never ends holds close until its time limit, and its shell.error reaches a subscriber before the iterators end (before: close cut it short at once)', async () => {
      const agent = compactingAgent({ afterCompact: [() => new Promise<void>(() => {})] }, { compactionTimeoutMs: 60 });
      const errors: AgentEvent[] = [];
      agent.subscribe((e) => void (e.type === 'shell.error' && errors.push(e)));
      const iterated: AgentEvent[] = [];
      const iterating = (async () => {
        for await (const e of agent) if (e.type === 'shell.error') iterated.push(e);
      })();
      expect(await agent.prompt('read the whole document')).toMatchObject({ status: 'completed' });
      const compactions = agent.session.entries().filter((e) => e.kind === 'compaction');
      expect(compactions.length).toBeGreaterThan(0);
      const before = errors.length;
      const closing = Date.now();
      await agent.close();
      await iterating;
      // The hooks queued when close was called each had their own 60 ms, after the ones running then.
      expect(Date.now() - closing).toBeGreaterThanOrEqual(60 * (compactions.length - before - 1) - 5);
      const timedOut = { where: 'afterCompact hook', message: 'afterCompact[0] was left running: the afterCompact hooks did not finish within 60 ms (limits.compactionTimeoutMs); the compaction stands' };
      expect(errors).toEqual(compactions.map(() => expect.objectContaining(timedOut)));
      expect(iterated).toEqual(errors);
    });
  });
});
