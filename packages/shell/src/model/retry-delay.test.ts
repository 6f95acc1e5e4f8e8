import { describe, expect, it } from 'vitest';
import { retryDelay } from './retry-delay.js';

const settings = { retryBaseDelayMs: 100, retryMaxDelayMs: 1_000 };

describe('retryDelay', () => {
  it('doubles per attempt, within the upper half of the step (jitter), up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((a) => retryDelay(a, settings, undefined, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((a) => retryDelay(a, settings, undefined, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });

  it('waits what the provider asked for, capped', () => {
    expect(retryDelay(1, settings, 300)).toBe(300);
    expect(retryDelay(1, settings, 60_000)).toBe(1_000);
  });
});
