import { describe, expect, it } from 'vitest';
import { stepTimer, stepTimesReport } from './step-times.js';

describe('the step times of a bench run', () => {
  it('lists the steps longest first with their share, and the total against the budget', () => {
    const lines = stepTimesReport(
      [
        { label: 'writing sessions', seconds: 12 },
        { label: 'timing every loop over 10000 messages', seconds: 120 },
        { label: 'streaming', seconds: 3 },
      ],
      150,
      600,
    );
    expect(lines[0]).toBe('time per step, longest first:');
    expect(lines.slice(1, 4).map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(['timing every loop over 10000 messages', 'writing sessions', 'streaming']);
    expect(lines[1]).toMatch(/120\.0 s\s+80%$/);
    expect(lines.at(-1)).toBe('total 150 s, within the budget of 600 s');
    expect(stepTimesReport([{ label: 'all', seconds: 700 }], 700, 600).at(-1)).toBe('total 700 s, OVER the budget of 600 s');
  });

  it('logs each step as it starts and its time as it ends, and keeps the time of a step that throws', async () => {
    let clock = 0;
    const log: string[] = [];
    const timer = stepTimer((line) => log.push(line), () => clock);
    expect(await timer.step('first', () => ((clock += 1500), 'result'))).toBe('result');
    await expect(
      timer.step('second', async () => {
        clock += 250;
        throw new Error('broke');
      }),
    ).rejects.toThrow('broke');
    expect(log).toEqual(['first…', '  1.5 s', 'second…', '  0.3 s']);
    expect(timer.steps).toEqual([
      { label: 'first', seconds: 1.5 },
      { label: 'second', seconds: 0.25 },
    ]);
  });
});
