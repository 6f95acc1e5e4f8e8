import { describe, expect, it } from 'vitest';
import { formatNumber, formatSize, resultsTable, scalingTable } from './format-table.js';
import type { Measurement } from './measurement.js';

describe('formatNumber', () => {
  it('keeps about three significant digits and groups thousands', () => {
    expect(formatNumber(1148.4)).toBe('1,148');
    expect(formatNumber(41.23)).toBe('41.2');
    expect(formatNumber(3.14159)).toBe('3.14');
    expect(formatNumber(0.05234)).toBe('0.052');
    expect(formatNumber(0.000412)).toBe('0.0004');
  });
});

describe('formatSize', () => {
  it('writes round thousands as k and other counts exactly', () => {
    expect(formatSize(100_000)).toBe('100k');
    expect(formatSize(1018)).toBe('1,018');
  });
});

describe('resultsTable', () => {
  const rows: Measurement[] = [
    { operation: 'context', size: 100_000, unit: 'ms', tiller: 45, reference: { name: 'pi', value: 900 } },
    { operation: 'replay', size: 1018, unit: 'events/s', tiller: 120_000 },
  ];

  it('gives one markdown row per measurement with the ratio and the verdict', () => {
    const lines = resultsTable(rows).split('\n');
    expect(lines[0]).toBe('| operation | entries | Tiller (median) | pi / floor (median) | ratio | goal |');
    expect(lines[1]).toBe('| --- | --- | --- | --- | --- | --- |');
    expect(lines[2]).toBe('| build the context | 100k | 45.0 ms | pi: 900 ms | 0.050x | at least 10x faster than pi: **met** |');
    expect(lines[3]).toBe('| replay throughput, after `start` | 1,018 | 120,000 events/s |  |  | at least 50,000 events/s: **met** |');
  });

  it('escapes a pipe inside a cell', () => {
    const table = resultsTable([{ operation: 'open', size: 10, unit: 'ms', tiller: 1, reference: { name: 'a|b', value: 2 } }]);
    expect(table).toContain('a\\|b: 2.00 ms');
  });
});

describe('scalingTable', () => {
  it('shows the growth of both sides and the linear goal', () => {
    const table = scalingTable([
      { operation: 'prepare', from: 10_000, to: 100_000, tiller: 11, reference: { name: 'pi', value: 55 }, verdict: { goal: 'linear: at most 15x', met: true } },
    ]);
    expect(table.split('\n')[2]).toBe('| prepare a compaction | 10k → 100k | 11.0x | pi: 55.0x | linear: at most 15x: **met** |');
  });
});
