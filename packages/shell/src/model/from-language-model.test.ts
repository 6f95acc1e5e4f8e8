import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { recordingTools } from '../../test/helpers.js';
import { createAgent } from '../agent/create-agent.js';
import { fromLanguageModel } from './from-language-model.js';

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

/** A provider that answers call n with `replies[n]`: the parts a real one streams. */
function providerModel(replies: LanguageModelV3StreamPart[][]) {
  let call = 0;
  return new MockLanguageModelV3({
    doStream: async () => ({ stream: convertArrayToReadableStream(replies[call++]!) }),
  });
}

const finish = (unified: 'stop' | 'tool-calls'): LanguageModelV3StreamPart => ({ type: 'finish', finishReason: { unified, raw: unified }, usage });

describe('fromLanguageModel: tool calls whose arguments cannot be read', () => {
  it('keeps the text the model sent, and tells the model its arguments were not a JSON object', async () => {
    const model = fromLanguageModel(
      providerModel([
        [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'echo', input: 'not json {{{' }, finish('tool-calls')],
        [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'sorry' }, { type: 'text-end', id: 't' }, finish('stop')],
      ]),
    );
    const { echo, calls } = recordingTools();
    const agent = createAgent({ model, tools: [echo] });
    expect(await agent.prompt('echo something')).toMatchObject({ status: 'completed' });
    expect(calls).toEqual([]);
    const [, reply, result] = agent.session.context();
    expect(reply).toMatchObject({ role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'echo', args: {}, unparsedArgs: 'not json {{{' }] });
    expect(result).toMatchObject({
      role: 'toolResult',
      isError: true,
      content: [{ type: 'text', text: 'Tool "echo" did not run: its arguments are not a JSON object: not json {{{\nCall the tool again with a JSON object that matches its schema.' }],
    });
  });
});

describe('fromLanguageModel: token counts a provider reports that are no whole numbers', () => {
  // Proxies in front of a model have been seen to report estimated counts (12.6) or counts
  // worked out as a difference that went below zero; a count is not worth the answer it came with.
  it.each([
    ['fractional', { inputTokens: { total: 10.6, noCache: 8.4, cacheRead: 2.2, cacheWrite: 0 }, outputTokens: { total: 4.5, text: 4.5, reasoning: 0 } }, { input: 8, output: 5, cacheRead: 2, cacheWrite: 0 }],
    ['negative', { inputTokens: { total: 10, noCache: -3, cacheRead: 13, cacheWrite: -1 }, outputTokens: { total: -2, text: 0, reasoning: 0 } }, { input: 0, output: 0, cacheRead: 13, cacheWrite: 0 }],
    ['not finite', { inputTokens: { total: Number.NaN, noCache: Number.NaN, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: Number.POSITIVE_INFINITY, text: undefined, reasoning: undefined } }, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }],
  ])('%s counts: the reply is kept, with whole counts of 0 or more', async (_, reported, counted) => {
    const model = fromLanguageModel(
      providerModel([[{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'hello' }, { type: 'text-end', id: 't' }, { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: reported as never }]]),
    );
    const agent = createAgent({ model });
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    const reply = agent.session.context().at(-1);
    expect(reply).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'hello' }], usage: counted });
    const { usage: kept } = reply as unknown as { usage: Record<string, number> };
    expect(Object.values(kept).every((n) => Number.isSafeInteger(n) && n >= 0)).toBe(true);
  });
});
