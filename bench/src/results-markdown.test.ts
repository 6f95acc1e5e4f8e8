import { describe, expect, it } from 'vitest';
import type { Measurement } from './measurement.js';
import { resultsMarkdown, sortMeasurements } from './results-markdown.js';

const rows: Measurement[] = [
  { operation: 'context', size: 100_000, unit: 'ms', tiller: 40, reference: { name: 'pi', value: 900 } },
  { operation: 'open', size: 10_000, unit: 'ms', tiller: 100, reference: { name: 'pi', value: 90 } },
  { operation: 'context', size: 10_000, unit: 'ms', tiller: 4, reference: { name: 'pi', value: 16 } },
];

describe('resultsMarkdown', () => {
  it('orders rows by operation, then size', () => {
    expect(sortMeasurements(rows).map((m) => [m.operation, m.size])).toEqual([
      ['open', 10_000],
      ['context', 10_000],
      ['context', 100_000],
    ]);
  });

  it('writes the run, the table and the growth between sizes ten times apart', () => {
    const text = resultsMarkdown(rows, { date: '2026-01-01T00:00:00Z', versions: ['pi 0.73.1'], sizes: [1018, 10_000, 100_000], seconds: 95.4 });
    expect(text).toContain('on 2026-01-01T00:00:00Z (pi 0.73.1; the whole run took 95 s)');
    expect(text).toContain('| build the context | 100k | 40.0 ms | pi: 900 ms | 0.044x | at least 10x faster than pi: **met** |');
    expect(text).toContain('| build the context | 10k → 100k | 10.0x | pi: 56.3x | linear: at most 15x: **met** |');
  });

  it('says so when no two sizes are ten times apart', () => {
    const text = resultsMarkdown(rows, { date: 'd', versions: [], sizes: [1018, 10_000], seconds: 1 });
    expect(text).toContain('No two sizes ten times apart were measured.');
  });

  it('names the conversation measured, and says above the tables that the recording was absent and which rows are left out', () => {
    const notes = ['pi-large-session.jsonl not found', 'the LangGraph + SQLite checkpointer rows are left out: better-sqlite3 did not build'];
    const text = resultsMarkdown(rows, { date: 'd', versions: [], sizes: [10_000], seconds: 1, source: 'a generated session (seed 17, 1,018 entries)', notes });
    expect(text).toContain('Every session and history repeats a generated session (seed 17, 1,018 entries).');
    expect(text).toContain('**Note:** pi-large-session.jsonl not found.');
    expect(text).toContain('**Note:** the LangGraph + SQLite checkpointer rows are left out: better-sqlite3 did not build.');
    expect(text.lastIndexOf('**Note:**')).toBeLessThan(text.indexOf('| operation |'));
  });
});
