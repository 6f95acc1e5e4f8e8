import { expect } from 'vitest';
import { assertFullCoverage } from './coverage.js';
import type { InvariantName } from './run/invariants.js';
import type { PathRun } from './run/path-run.js';

/**
 * Matchers over runs, for `expect(run)`. Import this module once (a setup file, or the test
 * itself): `import '@tiller/testing/vitest'`.
 */
export interface TillerMatchers<R = unknown> {
  /** No invariant broke; on failure, prints what broke and the script to replay the path with. */
  toHoldEveryInvariant(): R;
  /** This invariant held (others may not have). */
  toHold(invariant: InvariantName | (string & {})): R;
  /** This invariant broke: for tests of the kit, and of agents meant to be caught. */
  toBreak(invariant: InvariantName | (string & {})): R;
  toHaveValidTranscript(): R;
  /** Runs (an array) covered every state and transition the world can reach. */
  toCoverTheTurnMachine(): R;
}

declare module 'vitest' {
  interface Matchers<T = any> extends TillerMatchers<T> {}
}

const brokenOf = (run: PathRun, invariant: string) => run.broken.filter((b) => b.invariant === invariant);

expect.extend({
  toHoldEveryInvariant(run: PathRun) {
    return { pass: run.broken.length === 0, message: () => (this.isNot ? `expected some invariant to break on ${run.path.name}` : run.report()) };
  },
  toHold(run: PathRun, invariant: string) {
    const found = brokenOf(run, invariant);
    return { pass: found.length === 0, message: () => (this.isNot ? `expected ${invariant} to break on ${run.path.name}` : run.report()) };
  },
  toBreak(run: PathRun, invariant: string) {
    const found = brokenOf(run, invariant);
    return { pass: found.length > 0, message: () => (this.isNot ? run.report() : `expected ${invariant} to break, but it held:\n${run.report()}`) };
  },
  toHaveValidTranscript(run: PathRun) {
    const found = brokenOf(run, 'valid-transcript');
    return { pass: found.length === 0, message: () => (this.isNot ? `expected an invalid transcript on ${run.path.name}` : run.report()) };
  },
  toCoverTheTurnMachine(runs: PathRun[]) {
    try {
      assertFullCoverage(runs);
      return { pass: true, message: () => 'expected the runs to leave part of the turn machine uncovered' };
    } catch (error) {
      return { pass: false, message: () => (error as Error).message };
    }
  },
});
