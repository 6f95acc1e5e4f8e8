import { describe, expect, it } from 'vitest';
import { scalingOf, verdictOf } from './goals.js';
import type { Measurement } from './measurement.js';

const row = (operation: Measurement['operation'], size: number, tiller: number, reference?: number, name = 'pi'): Measurement => ({
  operation,
  size,
  unit: 'ms',
  tiller,
  ...(reference === undefined ? {} : { reference: { name, value: reference } }),
});

describe('verdictOf', () => {
  it('holds opening within 1.1x of plain parsing', () => {
    expect(verdictOf(row('open-floor', 1000, 1.1, 1, 'floor'), [])).toEqual({ goal: 'within 1.1x of plain parsing', met: true });
    expect(verdictOf(row('open-floor', 1000, 1.2, 1, 'floor'), [])?.met).toBe(false);
  });

  it('asks 10x over pi for context and preparation only at 100k entries', () => {
    expect(verdictOf(row('context', 10_000, 5, 6), [])).toBeUndefined();
    expect(verdictOf(row('context', 100_000, 9, 100), [])?.met).toBe(true);
    expect(verdictOf(row('prepare', 100_000, 11, 100), [])?.met).toBe(false);
  });

  it('judges the boundary decision O(1) against the smallest session', () => {
    const all = [row('decision', 1000, 0.001, 1), row('decision', 100_000, 0.0019, 100), row('decision', 10_000, 0.0025, 10)];
    expect(verdictOf(all[1]!, all)?.met).toBe(true);
    expect(verdictOf(all[2]!, all)?.met).toBe(false);
  });

  it('needs step within 2x a bare transition and flat', () => {
    const all = [row('step', 1000, 50, 40, 'transition'), row('step', 100_000, 70, 40, 'transition'), row('step', 10_000, 110, 40, 'transition')];
    expect(verdictOf(all[0]!, all)?.met).toBe(true);
    expect(verdictOf(all[1]!, all)?.met).toBe(true);
    // Under 2.2x the smallest, but over 2x the transition.
    expect(verdictOf(all[2]!, all)?.met).toBe(false);
  });

  it('needs replay at 50,000 events/s and resume faster than a full parse', () => {
    expect(verdictOf({ operation: 'replay', size: 1000, unit: 'events/s', tiller: 49_999 }, [])?.met).toBe(false);
    expect(verdictOf(row('resume', 100_000, 20, 900, 'floor'), [])?.met).toBe(true);
    expect(verdictOf(row('resume', 100_000, 900, 900, 'floor'), [])?.met).toBe(false);
  });

  it('says "no data" (undefined) when a ratio goal has no reference', () => {
    expect(verdictOf(row('open-floor', 1000, 1), [])?.met).toBeUndefined();
  });

  it('sets no goal for rows the issue gives none', () => {
    expect(verdictOf(row('open', 100_000, 1, 2), [])).toBeUndefined();
    expect(verdictOf({ operation: 'memory-open', size: 100_000, unit: 'MB', tiller: 300, reference: { name: 'pi', value: 400 } }, [])).toBeUndefined();
  });
});

describe('scalingOf', () => {
  it('compares each timed row with the same operation and reference ten times smaller', () => {
    const all = [
      row('context', 10_000, 1, 16),
      row('context', 100_000, 12, 900),
      row('open-floor', 10_000, 10, 9, 'floor'),
      row('open-floor', 100_000, 200, 90, 'floor'),
      { operation: 'memory-open', size: 100_000, unit: 'MB', tiller: 1 } as Measurement,
    ];
    const scaling = scalingOf(all, 10_000, 100_000);
    expect(scaling).toEqual([
      { operation: 'context', from: 10_000, to: 100_000, tiller: 12, reference: { name: 'pi', value: 56.25 }, verdict: { goal: 'linear: at most 15x', met: true } },
      { operation: 'open-floor', from: 10_000, to: 100_000, tiller: 20, reference: { name: 'floor', value: 10 }, verdict: { goal: 'linear: at most 15x', met: false } },
    ]);
  });
});
