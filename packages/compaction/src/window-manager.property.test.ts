import type { CompactionEntry, Entry, Message } from '@tiller/core';
import { buildContext } from '@tiller/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectEachCompactionListsWhatLeftWithIt } from '../test/compaction-lists.js';
import { assistant, call, cutsInsideBatch, type Draft, extend, hostNote, result, user, words } from '../test/paths.js';
import { scriptedSummarizer } from '@tiller/testing';
import { estimateTokens } from './estimate-tokens.js';
import { createTokenLedger } from './token-ledger.js';
import { WindowManager } from './window-manager.js';

/** A session step: a user message, a tool round (thinking, calls, results), or a final answer. */
const stepArb = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), size: fc.nat(3000) }),
  fc.record({ kind: fc.constant('round' as const), results: fc.array(fc.nat(6000), { minLength: 1, maxLength: 3 }), thinking: fc.nat(300) }),
  fc.record({ kind: fc.constant('answer' as const), size: fc.nat(1000) }),
);

const contextTokens = (path: readonly Entry[]) => buildContext(path).reduce((sum, m) => sum + estimateTokens(m), 0);

const thinkingParts = (path: readonly Entry[]) =>
  buildContext(path).reduce((n, m) => n + (m.role === 'assistant' ? m.content.filter((p) => p.type === 'thinking').length : 0), 0);

function callsPaired(view: Message[]): boolean {
  const results = new Set(view.flatMap((m) => (m.role === 'toolResult' ? [m.toolCallId] : [])));
  return view.every((m) => m.role !== 'assistant' || m.content.every((p) => p.type !== 'toolCall' || results.has(p.id)));
}

describe('WindowManager over random sessions', () => {
  for (const strategy of ['summarize', 'clearToolResults', 'keepTail'] as const) {
    it(`${strategy}: only appends, keeps every call with its result, and keeps the ledger exact`, async () => {
      let compactions = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(stepArb, { minLength: 10, maxLength: 60 }), async (steps) => {
          let ids = 0;
          const manager = WindowManager({
            strategy,
            contextWindow: 12_000,
            reserveTokens: 2000,
            keepRecentTokens: 3000,
            summarizer: scriptedSummarizer(),
            newId: () => `cmp${++ids}`,
          });
          let path: Entry[] = [];
          let ledger = createTokenLedger();
          let n = 0;
          const push = (...drafts: Draft[]) => {
            const before = path.length;
            path = extend(path, ...drafts);
            ledger.appendAll(path.slice(before));
          };
          for (const step of steps) {
            n += 1;
            if (step.kind === 'user') push(user(words(Math.ceil(step.size / 4)), `u${n}`));
            else if (step.kind === 'answer') push(assistant(words(Math.ceil(step.size / 4)), { id: `a${n}` }));
            else {
              const calls = step.results.map((_, k) => call(`c${n}-${k}`, 'read', { path: `f${n}-${k}` }));
              push(assistant([{ type: 'thinking', thinking: words(step.thinking) }, ...calls], { id: `a${n}` }));
              step.results.forEach((size, k) => push(result(`c${n}-${k}`, words(Math.ceil(size / 4)), 'read', `r${n}-${k}`)));
            }
            const midRound = step.kind === 'round';
            const before = path;
            const { acc, meta } = await manager.maybeCompact({ path, ledger }, { model: 'm', promptTokens: 200, midRound });
            expect(acc.path.slice(0, before.length)).toEqual(before);
            expect(acc.path.slice(before.length)).toEqual(meta.appended);
            if (!meta.compacted) expect(meta.error).toBeUndefined();
            if (meta.compacted) {
              compactions += 1;
              expect(meta.appended).toHaveLength(1);
              expect(meta.tokensAfter).toBe(contextTokens(acc.path) + 200);
              expect(meta.tokensRemoved).toBeGreaterThan(0);
              expect(meta.appended[0]).toMatchObject({ compactedEntryIds: meta.dropped.map((e) => e.id) });
              const positions = meta.dropped.map((e) => before.indexOf(e));
              expect(positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!))).toBe(true);
              const entry = meta.appended[0]!;
              if (midRound) expect(entry.kind === 'compaction' && entry.stripThinking).toBe(true);
              // Thinking an earlier compaction stripped never comes back.
              expect(thinkingParts(acc.path)).toBeLessThanOrEqual(thinkingParts(before));
            } else {
              expect(acc.path).toBe(before);
            }
            path = [...acc.path];
            ledger = acc.ledger!;
            expect(ledger.length).toBe(path.length);
            // No call reports usage here, so the ledger is the estimate of the whole view.
            expect(ledger.tokens).toBe(contextTokens(path));
            expect(callsPaired(buildContext(path))).toBe(true);
          }
          expectEachCompactionListsWhatLeftWithIt(path);
        }),
        { numRuns: 60 },
      );
      expect(compactions).toBeGreaterThan(10);
    });
  }
});

/** A tool round whose results a message the host injected may interrupt, or a user message. */
const noteStepArb = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), size: fc.nat(3000) }),
  fc.record({
    kind: fc.constant('round' as const),
    results: fc.array(fc.nat(6000), { minLength: 1, maxLength: 3 }),
    note: fc.option(fc.record({ before: fc.nat(2), size: fc.nat(4000) }), { nil: undefined }),
  }),
);

describe('WindowManager over random sessions with host messages between calls and results', () => {
  for (const strategy of ['summarize', 'keepTail'] as const) {
    it(`${strategy}: never keeps a tool result whose call left the context`, async () => {
      let compactions = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(noteStepArb, { minLength: 5, maxLength: 40 }), fc.boolean(), async (steps, midRound) => {
          let ids = 0;
          const manager = WindowManager({ strategy, contextWindow: 12_000, reserveTokens: 2000, keepRecentTokens: 3000, summarizer: scriptedSummarizer(), newId: () => `cmp${++ids}` });
          let path: Entry[] = [];
          for (const [n, step] of steps.entries()) {
            if (step.kind === 'user') path = extend(path, user(words(Math.ceil(step.size / 4)), `u${n}`));
            else {
              path = extend(path, assistant(step.results.map((_, k) => call(`c${n}-${k}`, 'read', { path: `f${n}-${k}` })), { id: `a${n}` }));
              step.results.forEach((size, k) => {
                if (step.note && Math.min(step.note.before, step.results.length - 1) === k) path = extend(path, hostNote(words(Math.ceil(step.note.size / 4)), `n${n}`));
                path = extend(path, result(`c${n}-${k}`, words(Math.ceil(size / 4)), 'read', `r${n}-${k}`));
              });
            }
            const { acc, meta } = await manager.maybeCompact({ path }, { model: 'm', promptTokens: 200, midRound });
            path = [...acc.path];
            if (!meta.compacted) {
              expect(meta.error).toBeUndefined();
              continue;
            }
            compactions += 1;
            const entry = meta.appended[0] as CompactionEntry;
            expect(cutsInsideBatch(path, path.findIndex((e) => e.id === entry.firstKeptEntryId))).toBe(false);
          }
        }),
        { numRuns: 60 },
      );
      expect(compactions).toBeGreaterThan(10);
    });
  }
});
