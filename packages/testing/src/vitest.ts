import { expect } from 'vitest';
import { coverage, missingCoverage } from './coverage.js';
import { describeValue } from './describe-value.js';
import { INVARIANTS, type InvariantName } from './run/invariants.js';
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

/**
 * The run a matcher was given. A run not awaited (`expect(runPath(...))`) is the usual slip: it is
 * named as such, not left to fail as a TypeError reading `broken` of a Promise.
 */
function runOf(matcher: string, received: unknown): PathRun {
  const run = received as Partial<PathRun> | null | undefined;
  if (typeof run === 'object' && run !== null && Array.isArray(run.broken) && typeof run.report === 'function' && typeof run.path === 'object') return run as PathRun;
  const got =
    received instanceof Promise
      ? 'a Promise: await it first'
      : Array.isArray(received)
        ? 'a list (toCoverTheTurnMachine takes the list of runs)'
        : describeValue(received);
  throw new TypeError(`${matcher}: expected a run (what \`await runPath(...)\` gives), got ${got}`);
}

/**
 * The broken invariants of that name. A name the run did not check is a typo: `toHold` would pass
 * for ever and `toBreak` would fail blaming the agent, so it is refused.
 */
function brokenOf(matcher: string, run: PathRun, invariant: string) {
  const checked = run.invariants ?? Object.keys(INVARIANTS);
  if (!checked.includes(invariant)) {
    throw new TypeError(`${matcher}: this run checked no invariant named ${JSON.stringify(invariant)}; it checked ${checked.join(', ')}`);
  }
  return run.broken.filter((b) => b.invariant === invariant);
}

expect.extend({
  toHoldEveryInvariant(received: unknown) {
    const run = runOf('toHoldEveryInvariant', received);
    return { pass: run.broken.length === 0, message: () => (this.isNot ? `expected some invariant to break on ${run.path.name}` : run.report()) };
  },
  toHold(received: unknown, invariant: string) {
    const run = runOf('toHold', received);
    const found = brokenOf('toHold', run, invariant);
    return { pass: found.length === 0, message: () => (this.isNot ? `expected ${invariant} to break on ${run.path.name}` : run.report()) };
  },
  toBreak(received: unknown, invariant: string) {
    const run = runOf('toBreak', received);
    const found = brokenOf('toBreak', run, invariant);
    return { pass: found.length > 0, message: () => (this.isNot ? run.report() : `expected ${invariant} to break, but it held:\n${run.report()}`) };
  },
  toHaveValidTranscript(received: unknown) {
    const run = runOf('toHaveValidTranscript', received);
    const found = brokenOf('toHaveValidTranscript', run, 'valid-transcript');
    return { pass: found.length === 0, message: () => (this.isNot ? `expected an invalid transcript on ${run.path.name}` : run.report()) };
  },
  toCoverTheTurnMachine(runs: PathRun[]) {
    // Given something else than the list of runs, coverage throws saying so: a misuse, not a miss.
    const report = coverage(runs);
    return { pass: report.complete, message: () => (report.complete ? 'expected the runs to leave part of the turn machine uncovered' : missingCoverage(report)) };
  },
});
