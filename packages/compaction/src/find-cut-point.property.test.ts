import type { Entry } from '@tiller/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistant, call, cutsInsideBatch, type Draft, hostNote, label, pathOf, result, user, words } from '../test/paths.js';
import { findCutPoint } from './find-cut-point.js';

/** A session step; a tool round may have host messages and labels between its call and its results. */
const stepArb = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), size: fc.nat(2000) }),
  fc.record({
    kind: fc.constant('round' as const),
    results: fc.array(fc.nat(4000), { minLength: 1, maxLength: 3 }),
    // Where, among the results, a host message (or a label) goes: before result k.
    notes: fc.array(fc.record({ before: fc.nat(3), size: fc.nat(1500), label: fc.boolean() }), { maxLength: 2 }),
  }),
  fc.record({ kind: fc.constant('answer' as const), size: fc.nat(800) }),
);

type Step = typeof stepArb extends fc.Arbitrary<infer S> ? S : never;

function pathFrom(steps: Step[]): Entry[] {
  const drafts: Draft[] = [];
  steps.forEach((step, n) => {
    if (step.kind === 'user') drafts.push(user(words(Math.ceil(step.size / 4)), `u${n}`));
    else if (step.kind === 'answer') drafts.push(assistant(words(Math.ceil(step.size / 4)), { id: `a${n}` }));
    else {
      drafts.push(assistant(step.results.map((_, k) => call(`c${n}-${k}`, 'read', { path: `f${n}-${k}` })), { id: `a${n}` }));
      step.results.forEach((size, k) => {
        for (const [j, note] of step.notes.entries()) {
          if (Math.min(note.before, step.results.length - 1) !== k) continue;
          drafts.push(note.label ? label(`l${n}-${j}`) : hostNote(words(Math.ceil(note.size / 4)), `n${n}-${j}`));
        }
        drafts.push(result(`c${n}-${k}`, words(Math.ceil(size / 4)), 'read', `r${n}-${k}`));
      });
    }
  });
  return pathOf(...drafts);
}

describe('findCutPoint over random sessions with host messages inside tool batches', () => {
  it('never cuts inside a batch, neither where the context is kept from nor where a split turn starts', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 20_000 }), fc.nat(10), (steps, keep, startAt) => {
        const path = pathFrom(steps);
        const start = Math.min(startAt, path.length - 1);
        // Compaction's spans start where an earlier cut kept the context from: never inside a batch.
        fc.pre(!cutsInsideBatch(path, start));
        const cut = findCutPoint(path, start, path.length, keep);
        if (!cut.reached) return;
        expect(cutsInsideBatch(path, cut.firstKeptIndex)).toBe(false);
        if (cut.isSplitTurn) {
          expect(cut.turnStartIndex).toBeGreaterThanOrEqual(start);
          expect(cut.turnStartIndex).toBeLessThan(cut.firstKeptIndex);
          expect(cutsInsideBatch(path, cut.turnStartIndex)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});
