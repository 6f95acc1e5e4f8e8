import { describe, expect, it } from 'vitest';
import { runTsxChild } from './child-process.js';
import { LISTENER_SCENARIOS, type ListenerReport, type ListenerScenario } from './throwing-abort-listener.child.js';

// Host code that adds its own listener to the abort signal the shell lends it, where that listener
// throws (or rejects) when the signal fires. Node reports such a throw as an uncaught exception and
// ends the process, so each scenario runs in a child process of its own, which must print its
// report and exit 0. One row in docs/reliability.md ("Abort").

async function reportOf(scenario: ListenerScenario): Promise<ListenerReport> {
  const { code, stdout, stderr } = await runTsxChild('throwing-abort-listener.child.ts', [scenario]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(stdout) as ListenerReport;
}

describe('an abort listener of host code that throws', () => {
  it.each(LISTENER_SCENARIOS.filter((s) => s.startsWith('tool')))('%s: the host lives, the call gets its error result, the host hears a shell.error, and the next turn completes', async (scenario) => {
    const report = await reportOf(scenario);
    const stopped = scenario === 'tool, time limit' ? 'Tool "clean_up" did not finish within 50 ms and was stopped.' : 'The tool did not finish: the turn was aborted (the host aborted).';
    expect(report.toolResult).toMatchObject({ role: 'toolResult', isError: true, content: [{ type: 'text', text: stopped }] });
    expect(report.shellErrors).toEqual([{ where: 'tool clean_up abort listener', message: 'cleanup failed' }]);
    expect(report.first).toMatchObject(scenario === 'tool, time limit' ? { status: 'completed' } : { status: 'aborted', reason: 'the host aborted' });
    expect(report.next).toMatchObject({ status: 'completed' });
  }, 60_000);

  it.each(['model, turn aborted', 'compactor, turn aborted'] as const)('%s: the host lives, hears a shell.error, and the next turn completes', async (scenario) => {
    const report = await reportOf(scenario);
    expect(report.first).toMatchObject({ status: 'aborted', reason: 'the host aborted' });
    const where = scenario.startsWith('model') ? 'model test/hanging abort listener' : 'compactor throwing-listener abort listener';
    expect(report.shellErrors).toEqual([{ where, message: 'cleanup failed' }]);
    expect(report.next).toMatchObject({ status: 'completed' });
  }, 60_000);
});
