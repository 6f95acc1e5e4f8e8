import { type CompactionContext, type Compactor, createTokenLedger } from '@tiller/compaction';
import type { Entry, MaybeCompactEffect } from '@tiller/core';
import { scriptedModel } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import type { CompactionEvent } from '../effects/compact-at-boundary.js';
import { runCompaction } from './run-compaction.js';

const at = '2026-12-01T00:00:00.000Z';
const path: Entry[] = [
  { kind: 'message', id: 'e1', parentId: null, at, message: { role: 'user', content: 'hello' } },
  { kind: 'message', id: 'e2', parentId: 'e1', at, message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] } },
];
const effect: MaybeCompactEffect = { type: 'maybe_compact', id: 't1:c2', midRound: true, reason: 'overflow', force: true };
const model = scriptedModel([], { contextWindow: 8_000 });

/** A compactor that adds one compaction entry and records the context it was given. */
function recording(seen: CompactionContext[]): Compactor {
  return {
    name: 'recording',
    async maybeCompact(acc, ctx) {
      seen.push(ctx);
      const entry: Entry = { kind: 'compaction', id: 'c1', parentId: 'e2', at, summary: 'they said hello', firstKeptEntryId: 'e2', tokensBefore: 20, tokensAfter: 8, compactedEntryIds: ['e1'] };
      const meta = { compacted: true as const, appended: [entry], strategy: 'summarize', tokensBefore: 20, tokensAfter: 8, tokensRemoved: 12, dropped: [acc.path[0]!], clearedEntryIds: [], midRound: ctx.midRound };
      return { acc: { path: [...acc.path, entry], ledger: acc.ledger }, meta };
    },
  };
}

describe('runCompaction', () => {
  it('hands the compactor the boundary and the model, and answers compaction.done with what it appended, as plain data', async () => {
    const seen: CompactionContext[] = [];
    const turn = new AbortController();
    const answer = await runCompaction(effect, { compactor: recording(seen), model, path, ledger: createTokenLedger(path), promptTokens: 42, signal: turn.signal });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ model: model.id, window: 8_000, promptTokens: 42, midRound: true, force: true, reason: 'overflow' });
    expect(answer).toMatchObject({ type: 'compaction.done', id: effect.id, meta: { compacted: true, strategy: 'summarize', droppedEntryIds: ['e1'] }, appended: [{ id: 'c1' }] });
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
    // The compactor's signal is its own (the next test has it hear the turn's abort).
    const lent = seen[0]!.signal!;
    expect(lent).not.toBe(turn.signal);
    expect(lent.aborted).toBe(false);
  });

  it('reports an abort listener of the compactor that throws when the turn aborts, and answers as for any abort', async () => {
    const events: CompactionEvent[] = [];
    const turn = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const compactor: Compactor = {
      name: 'throwing-listener',
      maybeCompact(_acc, ctx) {
        ctx.signal!.addEventListener('abort', () => {
          throw new Error('cleanup failed');
        });
        ctx.signal!.onabort = () => Promise.reject(new Error('async cleanup failed'));
        started();
        return new Promise(() => {});
      },
    };
    const answer = runCompaction(effect, { compactor, model, path, promptTokens: 0, signal: turn.signal, onEvent: (event) => events.push(event) });
    await running;
    turn.abort(new Error('the host aborted'));
    await expect(answer).resolves.toMatchObject({ type: 'compaction.done', id: effect.id, meta: { compacted: false, error: 'the turn was aborted' }, appended: [] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.map(({ type, where, message }) => ({ type, where, message }))).toEqual([
      { type: 'shell.error', where: 'compactor throwing-listener abort listener', message: 'cleanup failed' },
      { type: 'shell.error', where: 'compactor throwing-listener abort listener', message: 'async cleanup failed' },
    ]);
  });

  it('tells onEvent of a compactor that broke its contract, whose result it discards', async () => {
    const events: CompactionEvent[] = [];
    const compactor: Compactor = { name: 'loose', maybeCompact: async (acc) => ({ acc: { path: acc.path.slice(1) }, meta: { compacted: false, appended: [] } }) };
    const answer = await runCompaction(effect, { compactor, model, path, promptTokens: 0, onEvent: (event) => events.push(event) });
    expect(answer).toMatchObject({ meta: { compacted: false, error: expect.stringContaining('the compactor loose broke its contract') }, appended: [] });
    expect(events).toMatchObject([{ type: 'shell.error', where: 'compaction', message: expect.stringContaining('the compactor loose broke its contract') }]);
  });

  it('keeps the compaction when an afterCompact hook outlasts the time limit: the limit covers the compactor, the hooks get as long again after it (before: the slow hook had the finished compaction stopped)', async () => {
    const events: CompactionEvent[] = [];
    const answer = await runCompaction(effect, {
      compactor: recording([]),
      hooks: { afterCompact: [() => new Promise<void>(() => {})] },
      model,
      path,
      promptTokens: 0,
      timeoutMs: 50,
      onEvent: (event) => events.push(event),
    });
    expect(answer).toMatchObject({ type: 'compaction.done', meta: { compacted: true, droppedEntryIds: ['e1'] }, appended: [{ id: 'c1' }] });
    expect(events).toMatchObject([
      { type: 'shell.error', where: 'afterCompact hook', message: 'afterCompact[0] was left running: the afterCompact hooks did not finish within 50 ms (limits.compactionTimeoutMs); the compaction stands' },
    ]);
  });
});
