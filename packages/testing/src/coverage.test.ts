import { describe, expect, it } from 'vitest';
import { agentPaths } from './agent-paths.js';
import { assertFullCoverage, coverage, reachableByTheWorld } from './coverage.js';
import { runPath } from './run/run-path.js';

const [story] = agentPaths({ maxLength: 3, crashes: false, hostActions: false, faults: [] });

describe('coverage, given something else than the list of runs', () => {
  it('says it takes the list, not one run, instead of "runs is not iterable"', async () => {
    const run = await runPath(story!, () => ({}));
    expect(() => coverage(run as never)).toThrow(/^coverage: expected the list of runs \(PathRun\[\]\), got one run: collect every run in a list and pass the list$/);
    expect(() => assertFullCoverage(undefined as never)).toThrow(/^coverage: expected the list of runs \(PathRun\[\]\), got undefined$/);
  });

  it('names the entry that is no run: a run not awaited, junk', async () => {
    const run = await runPath(story!, () => ({}));
    const pending = runPath(story!, () => ({}));
    expect(() => coverage([run, pending] as never)).toThrow(/^coverage: runs\[1\] is not a run: got a Promise \(await runPath\(\.\.\.\) before you keep it\)$/);
    expect(() => coverage([run, {}] as never)).toThrow(/^coverage: runs\[1\] is not a run: got an object$/);
    await pending;
    // A real list still gives its report.
    expect(coverage([run]).states.covered).toContain('turn.idle');
  });
});

describe('reachableByTheWorld', () => {
  // docs/testing.md quotes these counts: a change to the machine that moves them moves the docs.
  it('is every state and the 15 transitions a shell can feed, idle steers and follow-ups included', () => {
    const reachable = reachableByTheWorld();
    expect(reachable.states).toHaveLength(7);
    expect(reachable.transitions).toHaveLength(15);
    expect(reachable.transitions).toContain('turn.idle steer #0');
    expect(reachable.transitions).toContain('turn.idle follow_up #0');
  });
});
