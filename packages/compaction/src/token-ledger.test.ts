import type { CompactionEntry, Entry } from '@tiller/core';
import { buildContext, collectContext, entryMessage, repairTranscript } from '@tiller/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistant, call, type Draft, extend, hostNote, label, pathOf, result, usage, user, words } from '../test/paths.js';
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

  describe('on a damaged path whose repair moves a message (a note between a call and its result, a compaction between them)', () => {
    // The compaction keeps the call and the note but not the result, which follows it: what is sent
    // is the call, its result, then the note (repairTranscript's moved_message), and nothing more.
    const damaged = pathOf(
      user(words(40), 'u1'),
      assistant([call('c1', 'read', { path: 'a' })], { id: 'a1' }),
      hostNote(words(25), 'n1'),
      { kind: 'compaction', summary: words(30), firstKeptEntryId: 'u1', tokensBefore: 1_000 },
      result('c1', words(60), 'read', 'r1'),
    );
    const sent = (path: readonly Entry[]) => buildContext(path).reduce((sum, m) => sum + estimateTokens(m), 0);

    it('the repair moves the note after the result and adds nothing', () => {
      const roles = buildContext(damaged).map((m) => (m.role === 'toolResult' ? `result ${m.toolCallId}` : m.role));
      expect(roles).toEqual(['user', 'user', 'assistant', 'result c1', 'user']);
    });

    it('counts what buildContext sends, loaded at once or fed entry by entry', () => {
      const fed = createTokenLedger();
      fed.appendAll(damaged);
      expect(createTokenLedger(damaged).tokens).toBe(sent(damaged));
      expect(fed.tokens).toBe(sent(damaged));
    });

    it('counts what is sent on any path whose only repairs are moves (calls, results, notes and compactions in any order)', () => {
      // Drafts in any order: a note can land inside a batch, a compaction between a call and its result.
      const step = fc.oneof(
        fc.nat(60).map((n) => ({ kind: 'user' as const, n })),
        fc.record({ n: fc.nat(40), calls: fc.nat(2) }).map((a) => ({ kind: 'assistant' as const, ...a })),
        fc.nat(80).map((n) => ({ kind: 'result' as const, n })),
        fc.nat(30).map((n) => ({ kind: 'note' as const, n })),
        fc.nat(20).map((back) => ({ kind: 'compaction' as const, back })),
      );
      let moves = 0;
      fc.assert(
        fc.property(fc.array(step, { minLength: 3, maxLength: 14 }), (steps) => {
          let path: Entry[] = [];
          let open: string[] = [];
          for (const s of steps) {
            switch (s.kind) {
              case 'user':
                path = extend(path, user(words(s.n + 1)));
                break;
              case 'assistant':
                open = Array.from({ length: s.calls }, (_, k) => `c${path.length}-${k}`);
                path = extend(path, assistant([{ type: 'text', text: words(s.n) }, ...open.map((id) => call(id, 'read', { path: id }))]));
                break;
              case 'result':
                if (open.length > 0) path = extend(path, result(open.shift()!, words(s.n)));
                break;
              case 'note':
                path = extend(path, hostNote(words(s.n + 1)));
                break;
              case 'compaction':
                if (path.length > 0) path = extend(path, { kind: 'compaction', summary: words(10), firstKeptEntryId: path[Math.max(0, path.length - 1 - s.back)]!.id, tokensBefore: 0 });
                break;
              default: {
                const unknown: never = s;
                throw new TypeError(`unknown step ${JSON.stringify(unknown)}`);
              }
            }
          }
          const repairs = repairTranscript(collectContext(path)).repairs;
          fc.pre(repairs.every((r) => r.kind === 'moved_message'));
          if (repairs.length > 0) moves++;
          const fed = createTokenLedger();
          fed.appendAll(path);
          expect(createTokenLedger(path).tokens).toBe(sent(path));
          expect(fed.tokens).toBe(sent(path));
        }),
        { numRuns: 2_000 },
      );
      // The property reached paths with a move, not only valid ones.
      expect(moves).toBeGreaterThan(50);
    });

    it('counts what is sent with no note too: a result that follows the compaction answers the call it kept', () => {
      const path = damaged.filter((e) => e.id !== 'n1').map((e) => (e.id === 'a1' ? e : e.parentId === 'n1' ? { ...e, parentId: 'a1' } : e));
      expect(createTokenLedger(path).tokens).toBe(sent(path));
    });
  });
});
