import type { CompactionEntry, Entry } from '@tiller/core';
import { buildContext, entryMessage } from '@tiller/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistant, call, type Draft, extend, label, pathOf, result, usage, user, words } from '../test/paths.js';
import { calculateContextTokens, estimateTokens, trustedUsage } from './estimate-tokens.js';
import { lastCompactionIndex } from './path-scan.js';
import type { TokenCounter } from './token-counter.js';
import { createTokenLedger, estimatePathContextTokens } from './token-ledger.js';

/** The definition, computed the slow way: last trusted usage after the latest compaction plus estimates after it, or the whole view. */
function oracle(path: readonly Entry[]): number {
  const compaction = lastCompactionIndex(path);
  for (let i = path.length - 1; i > compaction; i--) {
    const entry = path[i]!;
    const found = entry.kind === 'message' ? trustedUsage(entry.message) : undefined;
    if (found) {
      let trailing = 0;
      for (const later of path.slice(i + 1)) {
        const m = entryMessage(later);
        if (m) trailing += estimateTokens(m);
      }
      return calculateContextTokens(found) + trailing;
    }
  }
  return buildContext(path).reduce((sum, m) => sum + estimateTokens(m), 0);
}

// Paths a session holds undamaged: a tool result always answers the call just before it, and a
// compaction keeps from a call, never from its result (buildContext repairs anything else, and
// the repair's notes are not what this ledger estimates).
const draftArb: fc.Arbitrary<(path: Entry[]) => Draft | Draft[]> = fc.oneof(
  fc.nat(400).map((n) => () => user(words(n))),
  fc.record({ n: fc.nat(400), total: fc.option(fc.integer({ min: 1, max: 200_000 })), stop: fc.constantFrom('stop', 'aborted', 'error') }).map(
    ({ n, total, stop }) => () => assistant(words(n), total === null ? { stopReason: stop as 'stop' } : { usage: usage(total + 100), stopReason: stop as 'stop' }),
  ),
  fc.nat(400).map((n) => (path: Entry[]) => [assistant([call(`c${path.length}`, 'read', {})]), result(`c${path.length}`, words(n))]),
  fc.constant(() => label('x')),
  fc.record({ back: fc.nat(30), strip: fc.boolean(), clear: fc.boolean() }).map(({ back, strip, clear }) => (path: Entry[]) => {
    let keptAt = Math.max(0, path.length - 1 - back);
    while (keptAt > 0 && path[keptAt]!.kind === 'message' && (path[keptAt] as { message: { role: string } }).message.role === 'toolResult') keptAt--;
    const kept = path[keptAt];
    const results = path.filter((e) => e.kind === 'message' && e.message.role === 'toolResult').slice(-3);
    const draft: Omit<CompactionEntry, 'id' | 'parentId' | 'at'> = {
      kind: 'compaction',
      summary: words(back),
      firstKeptEntryId: kept?.id ?? 'nowhere',
      tokensBefore: 0,
      ...(strip ? { stripThinking: true } : {}),
      ...(clear && results.length > 0 ? { cleared: { entryIds: results.map((e) => e.id), placeholder: '[gone]' } } : {}),
    };
    return draft as Draft;
  }),
);

describe('TokenLedger', () => {
  it('equals the definition after every append, compactions included', () => {
    fc.assert(
      fc.property(fc.array(draftArb, { maxLength: 60 }), (makers) => {
        let path: Entry[] = [];
        const ledger = createTokenLedger();
        for (const make of makers) {
          const drafts = [make(path)].flat();
          path = extend(path, ...drafts);
          for (const entry of path.slice(-drafts.length)) ledger.append(entry);
          expect(ledger.tokens).toBe(oracle(path));
          expect(ledger.length).toBe(path.length);
        }
        // Loading the whole path at once gives the same figure.
        expect(estimatePathContextTokens(path).tokens).toBe(oracle(path));
      }),
    );
  });

  it('says whether the figure rests on a reported usage', () => {
    const ledger = createTokenLedger(pathOf(user('abcd')));
    expect(ledger.estimate()).toEqual({ tokens: 1, anchored: false, usageTokens: 0, trailingTokens: 1 });
    ledger.append({ kind: 'message', id: 'a', parentId: 'e1', at: 'now', message: { role: 'assistant', content: [], usage: usage(700) } });
    expect(ledger.estimate()).toEqual({ tokens: 700, anchored: true, usageTokens: 700, trailingTokens: 0 });
  });

  it('estimates only the appended entry: the cost of an append does not grow with the path', () => {
    const seen: string[] = [];
    const counter: TokenCounter = { name: 'spy', count: (text) => (seen.push(text), Math.ceil(text.length / 4)) };
    const long = pathOf(...Array.from({ length: 2000 }, (_, i) => user(`message ${i}`)));
    const ledger = createTokenLedger(long, { counter });
    seen.length = 0;
    ledger.append({ kind: 'message', id: 'new', parentId: long.at(-1)!.id, at: 'now', message: { role: 'user', content: 'the new one' } });
    expect(seen).toEqual(['the new one']);
  });

  it('ignores usage reported before the latest compaction: it measured a context that is gone', () => {
    const path = pathOf(
      user(words(100), 'u1'),
      assistant(words(10), { usage: usage(150_000) }),
      user(words(50), 'u2'),
      assistant([call('c1', 'read', { path: 'a' })], { usage: usage(160_000) }),
      result('c1', words(20)),
      { kind: 'compaction', summary: words(30), firstKeptEntryId: 'u2', tokensBefore: 160_000 },
    );
    const ledger = createTokenLedger(path);
    expect(ledger.anchored).toBe(false);
    expect(ledger.tokens).toBe(buildContext(path).reduce((sum, m) => sum + estimateTokens(m), 0));
    expect(ledger.tokens).toBeLessThan(1000);
  });
});
