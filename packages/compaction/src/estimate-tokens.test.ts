import type { Message } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { assistant, call, label, message, pathOf, result, usage, user } from '../test/paths.js';
import {
  calculateContextTokens,
  estimateContextTokens,
  estimateSpanTokens,
  estimateTextTokens,
  estimateTokens,
  IMAGE_TOKENS,
} from './estimate-tokens.js';
import type { TokenCounter } from './token-counter.js';

const msg = (draft: ReturnType<typeof user>): Message => (draft as { message: Message }).message;
const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };

describe('estimateTokens', () => {
  it('counts a quarter token per character, rounded up per message', () => {
    expect(estimateTokens(msg(user('12345')))).toBe(2);
    expect(estimateTokens(msg(user('')))).toBe(0);
  });

  it('counts assistant text, thinking, tool names and JSON arguments', () => {
    const m = msg(assistant([{ type: 'thinking', thinking: 'abcd' }, { type: 'text', text: 'efgh' }, call('c', 'read', { path: 'a' })]));
    const chars = 4 + 4 + 'read'.length + JSON.stringify({ path: 'a' }).length;
    expect(estimateTokens(m)).toBe(Math.ceil(chars / 4));
  });

  it('counts 1,200 tokens per image, in tool results and in user messages alike', () => {
    const toolImage: Message = { role: 'toolResult', toolCallId: 'c', toolName: 'shot', content: [{ type: 'text', text: 'abcd' }, image], isError: false };
    expect(estimateTokens(toolImage)).toBe(1 + IMAGE_TOKENS);
    const userImage: Message = { role: 'user', content: [{ type: 'text', text: 'look' }, image, image] };
    expect(estimateTokens(userImage)).toBe(1 + 2 * IMAGE_TOKENS);
  });

  it('counts each CJK character as a token and the rest at four characters a token', () => {
    expect(estimateTextTokens('你好世界')).toBe(4);
    expect(estimateTextTokens('こんにちは、世界')).toBe(8);
    expect(estimateTextTokens('안녕하세요')).toBe(5);
    expect(estimateTextTokens('abcd你好')).toBe(1 + 2);
    // A Han character outside the BMP is two UTF-16 units but one character, one token.
    expect(estimateTextTokens('𠀀𠀁')).toBe(2);
    expect(estimateTokens(msg(user('read 文件 now')))).toBe(Math.ceil('read  now'.length / 4) + 2);
  });

  it('uses an exact counter for text when given one', () => {
    const calls: string[] = [];
    const counter: TokenCounter = { name: 'words', count: (text) => (calls.push(text), text.split(' ').length) };
    const m = msg(assistant([{ type: 'text', text: 'one two three' }, call('c', 'bash', { command: 'ls' })]));
    expect(estimateTokens(m, counter)).toBe(3 + 1 + 1);
    expect(calls).toEqual(['one two three', 'bash', '{"command":"ls"}']);
  });
});

describe('calculateContextTokens', () => {
  it('takes the reported total, or the sum of the parts when there is none', () => {
    expect(calculateContextTokens({ input: 1, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: 50 })).toBe(50);
    expect(calculateContextTokens({ input: 1, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: 0 })).toBe(10);
  });
});

describe('estimateContextTokens', () => {
  const messages = (drafts: ReturnType<typeof user>[]) => drafts.map(msg);

  it('anchors on the last usage and estimates what follows it', () => {
    const list = messages([user('a'.repeat(400)), assistant('b', { usage: usage(5000) }), user('c'.repeat(40))]);
    expect(estimateContextTokens(list)).toEqual({ tokens: 5010, usageTokens: 5000, trailingTokens: 10, lastUsageIndex: 1 });
  });

  it('skips the usage of aborted and failed calls', () => {
    const list = messages([
      assistant('x', { usage: usage(1000) }),
      user('y'.repeat(8)),
      assistant('z', { usage: usage(9000), stopReason: 'aborted' }),
      assistant('w', { usage: usage(9000), stopReason: 'error' }),
    ]);
    const estimate = estimateContextTokens(list);
    expect(estimate.usageTokens).toBe(1000);
    expect(estimate.lastUsageIndex).toBe(0);
    expect(estimate.trailingTokens).toBe(2 + 1 + 1);
  });

  it('estimates everything when no call reported usage', () => {
    expect(estimateContextTokens(messages([user('abcd'), assistant('efgh')]))).toEqual({
      tokens: 2,
      usageTokens: 0,
      trailingTokens: 2,
      lastUsageIndex: null,
    });
  });
});

describe('estimateSpanTokens', () => {
  it('sums the messages entries contribute and skips those the model never sees', () => {
    const path = pathOf(
      user('abcd'),
      label('bookmark'),
      { kind: 'custom', customType: 'note', message: { role: 'user', content: 'efghijkl' } },
      result('c', 'mnop'),
      message({ role: 'assistant', content: [{ type: 'text', text: 'q' }] }),
    );
    expect(estimateSpanTokens(path)).toBe(1 + 2 + 1 + 1);
  });
});
