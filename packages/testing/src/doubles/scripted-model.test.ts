import { describe, expect, it } from 'vitest';
import { ModelError, type Message, type ModelStreamPart } from '@tiller/core';
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

describe('scriptedModel.requests', () => {
  const send = (model: ReturnType<typeof scriptedModel>, messages: Message[]) => collect(model.stream({ messages, tools: [], system: undefined, signal: new AbortController().signal }));
  const user = (content: string): Message => ({ role: 'user', content });
  const result = (text: string): Message => ({ role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text }], isError: false });

  it('records a message replaced in the middle of the history (a tool result cleared), not the one before it', async () => {
    const model = scriptedModel([{ text: 'a' }, { text: 'b' }]);
    const [u, call, done] = [user('read it'), { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'read', args: {} }] } as Message, user('thanks')];
    const full = result('SECRET FULL OUTPUT');
    const cleared = result('[cleared]');
    await send(model, [u, call, full, done]);
    await send(model, [u, call, cleared, done, user('next')]);
    expect(model.requests[0]!.messages).toEqual([u, call, full, done]);
    expect(model.requests[1]!.messages[2]).toBe(cleared);
    expect(model.requests[1]!.messages).toEqual([u, call, cleared, done, user('next')]);
  });

  it('records each of two requests that differ only in the middle, whichever came first', async () => {
    const model = scriptedModel([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    const [first, last] = [user('first'), user('last')];
    const [x, y] = [user('x'), user('y')];
    await send(model, [first, x, last]);
    await send(model, [first, y, last]);
    await send(model, [first, x]);
    expect(model.requests.map((r) => r.messages)).toEqual([[first, x, last], [first, y, last], [first, x]]);
  });
});

describe('scriptedModel refuses a script it cannot play, when it is made', () => {
  it.each([
    ['a chunkSize of 0', [{ text: 'hello', chunkSize: 0 }], /scriptedModel: invalid script\[0\]:[\s\S]*chunkSize/],
    ['a negative chunkSize', [{ text: 'x' }, { text: 'hello', chunkSize: -2 }], /scriptedModel: invalid script\[1\]:[\s\S]*chunkSize/],
    ['a step that is null', [{ text: 'x' }, null], /scriptedModel: invalid script\[1\]: expected a reply, a failure \{error\}, a fault by name or a function, got null/],
    ['a step that is a number', [42], /scriptedModel: invalid script\[0\]: expected a reply, a failure \{error\}, a fault by name or a function, got 42/],
    ['toolCalls that are not a list', [{ toolCalls: 'read' }], /scriptedModel: invalid script\[0\]:[\s\S]*toolCalls/],
    ['an unknown error kind', [{ error: 'bogus' }], /scriptedModel: invalid script\[0\]:\n✖ Invalid option: expected one of "transient"\|"overflow"\|"fatal"\n  → at error/],
    ['an unknown fault name', ['timeout'], /scriptedModel: invalid script\[0\]: unknown fault "timeout"; the faults are transient, rate_limited/],
    ['a negative delay', [{ text: 'x', delayMs: -5 }], /scriptedModel: invalid script\[0\]:[\s\S]*delayMs/],
    ['a delay that is not a number', [{ text: 'x', delayMs: Number.NaN }], /scriptedModel: invalid script\[0\]:[\s\S]*delayMs/],
    ['a misspelt field', [{ txt: 'x' }], /scriptedModel: invalid script\[0\]:[\s\S]*txt/],
    ['a script that is not a list', 'hello', /scriptedModel: the script is a list of steps, got string/],
    // Objects that are no plain object passed the reply check (all its fields are optional) and played an empty reply.
    ['a step that is a Promise', [Promise.resolve({ text: 'x' })], /^scriptedModel: invalid script\[0\]: expected a reply, a failure \{error\}, a fault by name or a function, got a Promise$/],
    ['a step that is a Date', [new Date(0)], /^scriptedModel: invalid script\[0\]: expected a reply, a failure \{error\}, a fault by name or a function, got a Date$/],
  ])('%s', (_, script, message) => {
    expect(() => scriptedModel(script as never)).toThrow(TypeError);
    expect(() => scriptedModel(script as never)).toThrow(message);
  });

  it('checks what a function step gives when it is played, naming the step', async () => {
    const model = scriptedModel([{ text: 'a' }, () => ({ text: 'b', chunkSize: 0 })]);
    await collect(model.stream(request()));
    await expect(collect(model.stream(request()))).rejects.toThrow(/scriptedModel: invalid script\[1\] \(what its function returned\):[\s\S]*chunkSize/);
  });

  it('refuses what an async function step gives (a Promise), instead of playing an empty reply', async () => {
    const model = scriptedModel([async () => ({ text: 'hello' })] as never);
    await expect(collect(model.stream(request()))).rejects.toThrow(
      /^scriptedModel: invalid script\[0\] \(what its function returned\): expected a reply, a failure \{error\} or a fault by name, got a Promise \(an async function; a step's function answers synchronously\)$/,
    );
  });

  it('says a function step threw, naming the step, not as a provider failure of its own', async () => {
    const model = scriptedModel([{ text: 'a' }, (req) => ({ text: (req.messages.at(-1) as unknown as { content: Array<{ text: string }> }).content[5]!.text })]);
    await collect(model.stream(request()));
    const error = await collect(model.stream(request())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^scriptedModel: script\[1\] \(a function of the request\) threw: TypeError: Cannot read properties of undefined \(reading 'text'\)$/);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it('plays a ModelError a function step throws as that failure', async () => {
    const model = scriptedModel([() => { throw new ModelError('transient', 'busy'); }]);
    const error = await collect(model.stream(request())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).kind).toBe('transient');
  });

  it('plays a ModelError from another copy of @tiller/core as that failure too', async () => {
    // A second instance of the module, as a test's own copy of @tiller/core (another version) makes.
    const secondCopy = `${new URL('../../../core/src/model/model-error.ts', import.meta.url).pathname}?second-copy`;
    const copy = (await import(/* @vite-ignore */ secondCopy)) as { ModelError: typeof ModelError };
    expect(copy.ModelError).not.toBe(ModelError);
    const model = scriptedModel([() => { throw new copy.ModelError('overflow', 'too long'); }]);
    const error = await collect(model.stream(request())).catch((e: unknown) => e);
    expect(ModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'overflow', message: 'too long' });
  });
});

describe('scriptedModel on a call whose signal is already aborted', () => {
  it.each([
    ['a reply', { text: 'hello' }],
    ['a failure step', { error: 'transient' as const }],
    ['a fault by name', 'fatal' as const],
    ['a cut stream', 'cut_stream' as const],
    ['a function step', () => 'overflow' as const],
  ])('%s rejects with the abort, not with what it scripts', async (_, step) => {
    const controller = new AbortController();
    controller.abort(new Error('the user stopped'));
    const model = scriptedModel([step]);
    const parts: ModelStreamPart[] = [];
    const played = (async () => {
      for await (const part of model.stream(request(controller.signal))) parts.push(part);
    })();
    await expect(played).rejects.toThrow('the user stopped');
    expect(parts).toEqual([]);
    expect(model.requests).toHaveLength(1);
  });
});
