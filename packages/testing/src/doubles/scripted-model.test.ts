import { describe, expect, it } from 'vitest';
import { ModelError, type ModelStreamPart } from '@tiller/core';
import { scriptedModel } from './scripted-model.js';

const request = (signal = new AbortController().signal) => ({ messages: [{ role: 'user' as const, content: 'hi' }], tools: [], system: 'sys', signal });

async function collect(stream: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('scriptedModel', () => {
  it('streams thinking, text and tool-call deltas, then the message with usage, and records the request', async () => {
    const model = scriptedModel([{ thinking: 'hmm', text: 'hello world', toolCalls: [{ name: 'echo', args: { x: 1 } }], usage: { input: 7 }, chunkSize: 5 }]);
    const parts = await collect(model.stream(request()));
    expect(parts.slice(0, -1)).toEqual([
      { type: 'thinking-delta', delta: 'hmm' },
      { type: 'text-delta', delta: 'hello' },
      { type: 'text-delta', delta: ' worl' },
      { type: 'text-delta', delta: 'd' },
      { type: 'toolcall-delta', toolCallId: 'call-1-1', toolName: 'echo', delta: '{"x":1}' },
    ]);
    expect(parts.at(-1)).toMatchObject({
      type: 'done',
      stopReason: 'toolUse',
      usage: { input: 7, cacheRead: 0 },
      message: { role: 'assistant', model: 'scripted/model', content: [{ type: 'thinking' }, { type: 'text' }, { type: 'toolCall', id: 'call-1-1' }] },
    });
    expect(model.requests).toEqual([{ messages: [{ role: 'user', content: 'hi' }], toolNames: [], system: 'sys' }]);
    expect(model.remaining).toBe(0);
  });

  it('throws the scripted error, and a clear one past the end of the script', async () => {
    const model = scriptedModel([{ error: 'transient', message: 'busy', retryAfterMs: 9 }]);
    await expect(collect(model.stream(request()))).rejects.toMatchObject({ kind: 'transient', message: 'busy', retryAfterMs: 9 });
    const past = collect(model.stream(request()));
    await expect(past).rejects.toBeInstanceOf(ModelError);
    await expect(past).rejects.toThrow('the script has no step for model call 2');
  });

  it('answers from a function of the request, and stops when aborted mid-delay', async () => {
    const model = scriptedModel([(req) => ({ text: `you said ${String(req.messages[0]!.content)}` }), { text: 'late', delayMs: Infinity }]);
    expect((await collect(model.stream(request()))).at(-1)).toMatchObject({ message: { content: [{ text: 'you said hi' }] } });
    const controller = new AbortController();
    const pending = collect(model.stream(request(controller.signal)));
    controller.abort('stop');
    await expect(pending).rejects.toThrow('stop');
  });

  it('keeps what each request was sent without a copy per request, and plays faults by name', async () => {
    const model = scriptedModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }, 'rate_limited']);
    const m1 = { role: 'user' as const, content: 'one' };
    const m2 = { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'a' }] };
    const m3 = { role: 'user' as const, content: 'two' };
    const send = (messages: Array<typeof m1 | typeof m2>) => collect(model.stream({ messages, tools: [], system: undefined, signal: new AbortController().signal }));
    await send([m1]);
    await send([m1, m2, m3]);
    // After a compaction the context starts elsewhere: a request of its own.
    await send([m3]);
    expect(model.requests.map((r) => r.messages.length)).toEqual([1, 3, 1]);
    expect(model.requests[1]!.messages[0]).toBe(m1);
    expect(model.requests[2]!.messages).toEqual([m3]);
    await expect(send([m3])).rejects.toMatchObject({ kind: 'transient', retryAfterMs: 1 });
  });
});
