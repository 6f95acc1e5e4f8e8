import { afterEach, describe, expect, it, vi } from 'vitest';
import { now } from './clock.js';

describe('now', () => {
  afterEach(() => vi.useRealTimers());

  it('is the current time as ISO-8601 text, following the clock from one millisecond to the next', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-04T05:06:07.008Z') });
    expect(now()).toBe('2026-03-04T05:06:07.008Z');
    expect(now()).toBe('2026-03-04T05:06:07.008Z');
    vi.advanceTimersByTime(1);
    expect(now()).toBe('2026-03-04T05:06:07.009Z');
    vi.setSystemTime(Date.parse('2027-01-01T00:00:00.000Z'));
    expect(now()).toBe('2027-01-01T00:00:00.000Z');
  });
});
