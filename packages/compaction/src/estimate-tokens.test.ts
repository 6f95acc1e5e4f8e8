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
import { MalformedMessageError, TillerCompactionError } from './errors/index.js';
import { createTokenLedger } from './token-ledger.js';
import { runCompactor } from './run-compactor.js';
import type { Compactor } from './compactor.js';

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

describe('a message that is not what the schema says', () => {
  // What a compactor or a policy written in JavaScript may hand the estimator: each is refused with
  // the package's typed error naming the field, never a raw TypeError, and never counted as NaN.
  const cases: Array<[string, unknown, string]> = [
    ['null', null, '(the message): expected an object'],
    ['a number', 42, '(the message): expected an object'],
    ['an unknown role', { role: 'system', content: 'hi' }, 'role: expected user, assistant or toolResult'],
    ['a user message whose content is null', { role: 'user', content: null }, 'content: expected a string or an array of parts'],
    ['an assistant message whose content is a number', { role: 'assistant', content: 42 }, 'content: expected an array of parts'],
    ['a null part', { role: 'toolResult', toolCallId: 'c', toolName: 'read', content: [null], isError: false }, 'content[0]: expected a part (an object with a type)'],
    ['a part of an unknown type', { role: 'user', content: [{ type: 'text', text: 'ok' }, { type: 'video', url: 'x' }] }, 'content[1].type: expected text, image, file'],
    ['a text part whose text is a number', { role: 'assistant', content: [{ type: 'text', text: 42 }] }, 'content[0].text: expected a string'],
    ['a tool call without args', { role: 'assistant', content: [{ type: 'toolCall', id: 'c', name: 'read' }] }, 'content[0].args: expected an object'],
    ['a tool call whose id is empty', { role: 'assistant', content: [{ type: 'toolCall', id: '', name: 'read', args: {} }] }, 'content[0].id: expected a non-empty string'],
    ['an image whose mime type is empty', { role: 'user', content: [{ type: 'image', data: 'aGk=', mimeType: '' }] }, 'content[0].mimeType: expected a non-empty string'],
    ['a usage whose token count is no number', { role: 'assistant', content: [], usage: { input: '12', output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 12 } }, 'usage.input: expected a whole number of tokens'],
    ['a tool result without its isError', { role: 'toolResult', toolCallId: 'c', toolName: 'read', content: [] }, 'isError: expected true or false'],
    ['a tool call whose args hold a BigInt', { role: 'assistant', content: [{ type: 'toolCall', id: 'c', name: 'read', args: { n: 1n } }] }, 'content[0].args: cannot be written as JSON'],
  ];

  it.each(cases)('%s: a MalformedMessageError naming the field', (_, message, problem) => {
    let thrown: unknown;
    try {
      estimateTokens(message as Message);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MalformedMessageError);
    expect(thrown).not.toBeInstanceOf(TypeError);
    expect(TillerCompactionError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'malformed_message', where: 'estimateTokens: the message' });
    expect((thrown as Error).message).toContain(`estimateTokens: the message is malformed at ${problem}`);
    // With an exact counter too: the counter is never handed what is not text.
    expect(() => estimateTokens(message as Message, { name: 'chars', count: (text) => text.length })).toThrow(MalformedMessageError);
  });

  it('says which message of a list, and which entry of a path or a ledger', () => {
    const bad = { role: 'user', content: null } as unknown as Message;
    expect(() => estimateContextTokens([msg(user('fine')), bad])).toThrow('estimateContextTokens: messages[1] is malformed at content: expected a string or an array of parts');
    expect(() => estimateContextTokens([null as unknown as Message])).toThrow('estimateContextTokens: messages[0] is malformed at (the message): expected an object');
    const path = pathOf(user('fine'), { kind: 'message', id: 'e-bad', message: bad });
    expect(() => estimateSpanTokens(path)).toThrow('estimateSpanTokens: entry "e-bad" is malformed at content');
    expect(() => createTokenLedger(path)).toThrow(MalformedMessageError);
    expect(() => createTokenLedger(path)).toThrow('token ledger: entry "e-bad" is malformed at content');
  });

  it('refuses the message whose usage anchors the estimate when the schema refuses it: a usage is added up, never concatenated', () => {
    const counts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    const anchorWith = (bad: Record<string, unknown>) => ({ role: 'assistant', content: [], stopReason: 'stop', ...bad }) as unknown as Message;
    const hello = msg(user('hello there'));
    const stringly = anchorWith({ usage: { ...counts, totalTokens: '12' } });
    expect(() => estimateContextTokens([stringly, hello])).toThrow(MalformedMessageError);
    expect(() => estimateContextTokens([stringly, hello])).toThrow('estimateContextTokens: messages[0] is malformed at usage.totalTokens: expected a whole number of tokens, 0 or more');
    // Not only its usage: the anchor's message is what the schema says, or it anchors nothing.
    const emptyCall = anchorWith({ usage: { ...counts, totalTokens: 12 }, content: [{ type: 'toolCall', id: '', name: 'read', args: {} }] });
    expect(() => estimateContextTokens([emptyCall, hello])).toThrow('estimateContextTokens: messages[0] is malformed at content[0].id');
    // A ledger reads its anchor the same way, when it loads a path and when an entry is appended.
    const path = pathOf(user('fine'), { kind: 'message', id: 'e-anchor', message: anchorWith({ usage: { ...counts, totalTokens: NaN } }) });
    expect(() => createTokenLedger(path)).toThrow('token ledger: entry "e-anchor" is malformed at usage.totalTokens');
    const ledger = createTokenLedger(pathOf(user('fine')));
    expect(() => ledger.append(path.at(-1)!)).toThrow('token ledger: entry "e-anchor" is malformed at usage.totalTokens');
    expect(ledger.tokens).toBe(estimateTokens(msg(user('fine'))));
  });

  it('a compactor that estimates a malformed message: the host hears what was wrong, and nothing is compacted', async () => {
    const careless: Compactor = {
      name: 'careless',
      maybeCompact: async (acc) => {
        estimateTokens({ role: 'assistant', content: [{ type: 'text' }] } as unknown as Message);
        return { acc, meta: { compacted: false, appended: [] } };
      },
    };
    const run = await runCompactor(careless, { path: pathOf(user('hi')) }, { model: 'm', window: 1000, promptTokens: 0, midRound: false });
    expect(run.appended).toEqual([]);
    expect(run.breach).toBe(
      'the compactor careless threw: estimateTokens: the message is malformed at content[0].text: expected a string; it compacted nothing',
    );
  });
});
