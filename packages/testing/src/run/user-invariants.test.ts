import { describe, expect, it } from 'vitest';
import type { UserInvariant } from './invariants.js';
import type { PathRun } from './path-run.js';
import { checkUserInvariants } from './user-invariants.js';

// The checks below read nothing of the run: what is judged is what they return.
const run = {} as Omit<PathRun, 'passed' | 'broken' | 'report'>;
const check = (fn: (run: PathRun) => unknown) => checkUserInvariants(run, [], [{ name: 'mine', check: fn } as UserInvariant]);

describe('checkUserInvariants', () => {
  it('reports a message, each of a list, and nothing for a check that holds', () => {
    expect(check(() => 'wrong')).toEqual([{ invariant: 'mine', message: 'wrong' }]);
    expect(check(() => ['a', 'b'])).toEqual([
      { invariant: 'mine', message: 'a' },
      { invariant: 'mine', message: 'b' },
    ]);
    expect(check(() => undefined)).toEqual([]);
    expect(check(() => null)).toEqual([]);
    expect(check(() => [])).toEqual([]);
  });

  it('reports a check that throws as broken, with what it threw', () => {
    expect(check(() => { throw new Error('boom'); })).toEqual([{ invariant: 'mine', message: 'the check threw: boom' }]);
  });

  it.each([
    ['a Promise (an async check)', async () => 'the notebook is wrong', 'a Promise (an async check; checks run after the path, synchronously)'],
    ['a number', () => 3, 'the number 3'],
    ['an object', () => ({ problem: 'x' }), 'an object'],
    ['a list holding a number', () => ['fine', 4], 'a list holding the number 4'],
  ])('reports a check that returns %s as broken, saying what it returned', (_, fn, returned) => {
    const found = check(fn);
    expect(found).toEqual([{ invariant: 'mine', message: `the check returned ${returned}, where a message, a list of messages or nothing is expected` }]);
  });

  it('goes on to the next invariant after one that returned junk', () => {
    const found = checkUserInvariants(run, [], [
      { name: 'junk', check: () => 42 as never },
      { name: 'sees it', check: (r) => r.broken.map((b) => `before me: ${b.invariant}`) },
    ]);
    expect(found.map((b) => b.invariant)).toEqual(['junk', 'sees it']);
    expect(found[1]!.message).toBe('before me: junk');
  });
});
