import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LATEST_RESULTS_BEGIN, LATEST_RESULTS_END, latestResultsBlock, shownLatestResults, withLatestResults } from './latest-results.js';

const results = ['# Benchmark results', '', 'Written by `pnpm bench` on a day.', 'How each number is measured: [docs/performance.md](../docs/performance.md).', '', '| a | b |', '', '## Scaling', '', '| c |', ''].join('\n');

describe('the latest results in docs/performance.md', () => {
  it('are the body of RESULTS.md without its link to the page, headings one level down', () => {
    expect(latestResultsBlock(results)).toBe(['Written by `pnpm bench` on a day.', '', '| a | b |', '', '### Scaling', '', '| c |'].join('\n'));
  });

  it('replace only what stands between the markers', () => {
    const doc = `# Page\n\nintro\n\n${LATEST_RESULTS_BEGIN}\n\nold table\n\n${LATEST_RESULTS_END}\n\nafter\n`;
    const updated = withLatestResults(doc, results);
    expect(updated.startsWith('# Page\n\nintro\n\n')).toBe(true);
    expect(updated.endsWith(`${LATEST_RESULTS_END}\n\nafter\n`)).toBe(true);
    expect(updated).not.toContain('old table');
    expect(shownLatestResults(updated)).toBe(latestResultsBlock(results));
    expect(withLatestResults(updated, results)).toBe(updated);
  });

  it('refuse a page without the markers, naming them', () => {
    expect(() => withLatestResults('# Page\n', results)).toThrow(LATEST_RESULTS_BEGIN);
  });

  it('match the committed bench/RESULTS.md', () => {
    const doc = readFileSync(new URL('../../docs/performance.md', import.meta.url), 'utf8');
    const committed = readFileSync(new URL('../RESULTS.md', import.meta.url), 'utf8');
    expect(shownLatestResults(doc)).toBe(latestResultsBlock(committed));
  });
});
