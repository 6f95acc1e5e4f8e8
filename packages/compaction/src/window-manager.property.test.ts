import type { Entry, Message } from '@tiller/core';
import { buildContext } from '@tiller/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectEachCompactionListsWhatLeftWithIt } from '../test/compaction-lists.js';
import { assistant, call, type Draft, extend, result, user, words } from '../test/paths.js';
import { scriptedSummarizer } from '@tiller/testing/doubles';
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
