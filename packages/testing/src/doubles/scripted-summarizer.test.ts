import { describe, expect, it } from 'vitest';
import { scriptedSummarizer } from './scripted-summarizer.js';

const request = (purpose: string) => ({ system: 's', prompt: 'p', maxTokens: 100, purpose });

describe('scriptedSummarizer', () => {
  it('answers in order, records every request and reports usage', async () => {
    const summarizer = scriptedSummarizer({ usagePerCall: 50 });
    expect(await summarizer.summarize(request('history'))).toEqual({
      text: '## Goal\nsummary 1 (history)',
      model: 'scripted-summarizer',
      usage: { input: 50, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 60 },
    });
    await summarizer.summarize(request('turn-prefix'));
    expect(summarizer.requests.map((r) => r.purpose)).toEqual(['history', 'turn-prefix']);
  });

  it('holds answers until released, so a test can see requests in flight together', async () => {
    const summarizer = scriptedSummarizer({ hold: true, reply: (r) => `for ${r.purpose}` });
    const both = Promise.all([summarizer.summarize(request('a')), summarizer.summarize(request('b'))]);
    await Promise.resolve();
    expect(summarizer.waiting.map((r) => r.purpose)).toEqual(['a', 'b']);
    summarizer.release();
    expect((await both).map((r) => r.text)).toEqual(['for a', 'for b']);
    expect(summarizer.waiting).toEqual([]);
  });

  it('passes on a failing reply', async () => {
    const summarizer = scriptedSummarizer({ reply: () => Promise.reject(new Error('down')) });
    await expect(summarizer.summarize(request('history'))).rejects.toThrow('down');
  });
});
