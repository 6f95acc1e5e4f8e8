import { describe, expect, it } from 'vitest';
import { pairedRuns } from './paired-runs.js';

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
