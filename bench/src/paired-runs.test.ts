import { describe, expect, it } from 'vitest';
import { pairedRatio, pairedRuns } from './paired-runs.js';

describe('pairedRuns', () => {
  it('takes the two builds in turns, each going first every other pair', async () => {
    const order: string[] = [];
    await pairedRuns(
      async () => (order.push('ours'), 1),
      async () => (order.push('theirs'), 1),
      3,
    );
    expect(order).toEqual(['ours', 'theirs', 'theirs', 'ours', 'ours', 'theirs']);
  });

  it("gives each build's median and the median of the pairs' ratios, which a slow moment shared by a pair does not move", async () => {
    // The machine runs at a different speed for every pair; ours always takes 1.5 times theirs.
    const speeds = [1, 4, 2, 8, 3];
    let pairOfOurs = 0;
    let pairOfTheirs = 0;
    const result = await pairedRuns(
      async () => 1.5 * speeds[pairOfOurs++]!,
      async () => speeds[pairOfTheirs++]!,
      5,
    );
    expect(result).toEqual({ ours: 4.5, theirs: 3, ratio: 1.5 });
  });

  it('refuses a count of pairs that is not a whole number of at least one', async () => {
    const run = async () => 1;
    await expect(pairedRuns(run, run, 0)).rejects.toThrow('pairs must be a whole number of at least 1, got 0');
    await expect(pairedRuns(run, run, 2.5)).rejects.toThrow('got 2.5');
  });
});

describe('pairedRatio', () => {
  it('is the median of the ratios of runs taken side by side, not the ratio of the medians', () => {
    // Run by run ours takes 3x, 0.3x and 3x theirs; the ratio of the medians would be 3 / 10.
    expect(pairedRatio([3, 3, 30], [1, 10, 10])).toBe(3);
  });

  it('refuses runs that do not pair up', () => {
    expect(() => pairedRatio([1, 2], [1])).toThrow('paired runs need as many of each, got 2 and 1');
  });
});
