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
    { operation: 'replay', size: 1018, unit: 'us', tiller: 12, reference: { name: 'bare transition()', value: 10 } },
  ];

  it('gives one markdown row per measurement with the ratio and the verdict', () => {
    const lines = resultsTable(rows).split('\n');
    expect(lines[0]).toBe('| operation | size | Tiller (median) | compared with (median) | ratio | goal |');
    expect(lines[1]).toBe('| --- | --- | --- | --- | --- | --- |');
    expect(lines[2]).toBe('| build the context | 100k | 45.0 ms | pi: 900 ms | 0.050x | at least 10x faster than pi: **met** |');
    expect(lines[3]).toBe('| replay, per event, after `start` | 1,018 | 12.0 µs | bare transition(): 10.0 µs | 1.20x | at most 2x a bare transition: **met** |');
  });

  it('shows a peer stopped at the limit as over it, and the ratio as a bound', () => {
    const table = resultsTable([{ operation: 'agent-call-peers', size: 100_000, unit: 'ms', tiller: 0.5, reference: { name: 'AI SDK', value: 2000, overLimit: true } }]);
    expect(table.split('\n')[2]).toBe('| overhead per model call beside the AI SDK and LangGraph (history in messages) | 100k | 0.500 ms | AI SDK: over 2,000 ms (stopped at the limit) | < 0.0003x | at least 10x faster: **met** |');
  });

  it("gives a rate's ratio as the reference's rate over Tiller's, so below 1 is still Tiller ahead", () => {
    const table = resultsTable([{ operation: 'agents-throughput', size: 1000, unit: 'turns/s', tiller: 4000, reference: { name: 'AI SDK', value: 1000 } }]);
    expect(table).toContain('| 4,000 turns/s | AI SDK: 1,000 turns/s | 0.250x | ahead in turns per second: **met** |');
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
