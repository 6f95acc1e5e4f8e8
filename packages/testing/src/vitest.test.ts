import { describe, expect, it } from 'vitest';
import './vitest.js';
import { agentPaths } from './agent-paths.js';
import { runPath } from './run/run-path.js';

// The shortest whole story, with no tools: a real run, quickly.
const [story] = agentPaths({ maxLength: 3, crashes: false, hostActions: false, faults: [] });
const makeAgent = () => ({});

describe('the vitest matchers, misused', () => {
  it('say that a run was not awaited, instead of a TypeError reading `broken`', async () => {
    const pending = runPath(story!, makeAgent);
    for (const assertion of [
      () => expect(pending).toHoldEveryInvariant(),
      () => expect(pending).toHold('valid-transcript'),
      () => expect(pending).toBreak('valid-transcript'),
      () => expect(pending).toHaveValidTranscript(),
    ]) {
      expect(assertion).toThrow(/expected a run \(what `await runPath\(\.\.\.\)` gives\), got a Promise: await it first/);
    }
    await pending;
  });

  it('name the matcher and what they got when it is no run at all', () => {
    expect(() => expect(undefined).toHoldEveryInvariant()).toThrow(/^toHoldEveryInvariant: expected a run .*got undefined$/);
    expect(() => expect([]).toHold('valid-transcript')).toThrow(/^toHold: expected a run .*got a list \(toCoverTheTurnMachine takes the list of runs\)$/);
  });

  it('refuse an invariant the run did not check (a typo would hold for ever)', async () => {
    const run = await runPath(story!, makeAgent, { invariants: [{ name: 'writes-land-once', check: () => undefined }] });
    expect(run).toHold('valid-transcript');
    expect(run).toHold('writes-land-once');
    expect(() => expect(run).toHold('valid-transcrpt')).toThrow(/^toHold: this run checked no invariant named "valid-transcrpt"; it checked follows-path, valid-transcript, .*, no-shell-errors, writes-land-once$/);
    expect(() => expect(run).not.toBreak('writes-land-onse')).toThrow(/^toBreak: this run checked no invariant named "writes-land-onse"/);
  });

  it('say that toCoverTheTurnMachine takes the list of runs, not one', async () => {
    const run = await runPath(story!, makeAgent);
    expect(() => expect(run).toCoverTheTurnMachine()).toThrow(/^coverage: expected the list of runs \(PathRun\[\]\), got one run: collect every run in a list/);
    expect(() => expect([run, 42]).toCoverTheTurnMachine()).toThrow(/^coverage: runs\[1\] is not a run: got the number 42/);
    // Misused it throws; a real list that misses parts fails as before, listing them.
    expect(() => expect([run]).toCoverTheTurnMachine()).toThrow(/the runs did not cover the turn machine:\nstates \d+\/7/);
  });
});
