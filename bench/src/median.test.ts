import { describe, expect, it } from 'vitest';
import { EmptySampleError, median } from './median.js';

describe('median', () => {
  it('takes the middle of an odd count, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
    expect(median([3])).toBe(3);
  });

  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('is not pulled by one slow outlier, unlike the mean', () => {
    expect(median([10, 11, 12, 500])).toBe(11.5);
  });

  it('leaves the samples in their order', () => {
    const samples = [3, 1, 2];
    median(samples);
    expect(samples).toEqual([3, 1, 2]);
  });

  it('refuses an empty sample', () => {
    expect(() => median([])).toThrow(EmptySampleError);
  });
});
