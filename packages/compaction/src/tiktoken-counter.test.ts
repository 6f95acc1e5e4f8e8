import { describe, expect, it } from 'vitest';
import { estimateTokens } from './estimate-tokens.js';
import { loadTiktokenCounter } from './tiktoken-counter.js';

// Loading a rank file parses megabytes of JavaScript: seconds on a busy machine.
const LOAD_TIMEOUT = 60_000;

describe('loadTiktokenCounter', () => {
  it('counts tokens exactly with the ranks that ship with js-tiktoken', async () => {
    const o200k = await loadTiktokenCounter();
    expect(o200k.name).toBe('o200k_base');
    expect(o200k.count('hello world')).toBe(2);
    expect(o200k.count('')).toBe(0);
    // Special-token text is ordinary text in a conversation.
    expect(o200k.count('<|endoftext|>')).toBeGreaterThan(1);
    const cl100k = await loadTiktokenCounter('cl100k_base');
    expect(cl100k.count('hello world')).toBe(2);
  }, LOAD_TIMEOUT);

  it('serves as the exact counter of an estimate', async () => {
    const counter = await loadTiktokenCounter();
    const text = 'The quick brown fox jumps over the lazy dog.';
    expect(estimateTokens({ role: 'user', content: text }, counter)).toBe(counter.count(text));
    // CJK: chars/4 (pi) counts half or less of what the tokenizers give; a token a character is
    // within 10% of the tokenizers or above them (the safe side), and close for cl100k.
    const cl100k = await loadTiktokenCounter('cl100k_base');
    for (const cjk of ['我们需要在周五之前完成数据库迁移并更新所有相关文档', '東京で会議があります。明日の午後三時です。', '데이터베이스 마이그레이션을 금요일까지 완료해야 합니다']) {
      const heuristic = estimateTokens({ role: 'user', content: cjk });
      for (const exact of [counter.count(cjk), cl100k.count(cjk)]) {
        expect(Math.ceil(cjk.length / 4) * 2).toBeLessThanOrEqual(exact);
        expect(heuristic).toBeGreaterThanOrEqual(exact * 0.9);
      }
      expect(heuristic).toBeLessThanOrEqual(cl100k.count(cjk) * 1.35);
    }
  }, LOAD_TIMEOUT);
});
