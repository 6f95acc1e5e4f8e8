import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from '@ai-sdk/provider';
import { jsonSchema, streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAICompatibleServer, type OpenAICompatibleServer, type ServerReply } from './openai-compatible-server.js';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Wire = 'openai' | 'anthropic';

async function modelOver(wire: Wire, script: ServerReply[]) {
  server = await startOpenAICompatibleServer({ script });
  return wire === 'openai'
    ? createOpenAICompatible({ name: 'local', baseURL: server.baseURL, includeUsage: true }).chatModel('local-model')
    : createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' })('claude-sonnet-4-5');
}

/** One streamed call through the AI SDK, as the provider's client reads it: the parts it saw and the error it ended with. */
async function call(wire: Wire, script: ServerReply[]) {
  const model = await modelOver(wire, script);
  const result = streamText({
    model,
    prompt: 'hi',
    tools: { echo: tool({ description: 'echo', inputSchema: jsonSchema({ type: 'object', properties: { text: { type: 'string' } } }) }) },
    maxRetries: 0,
    onError: () => {},
  });
  const parts: Array<{ type: string } & Record<string, unknown>> = [];
  let error: unknown;
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'error') error = part.error;
      else parts.push(part as never);
    }
  } catch (thrown) {
    error = thrown;
  }
  const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.text as string] : [])).join('');
  const reasoning = parts.flatMap((p) => (p.type === 'reasoning-delta' ? [p.text as string] : [])).join('');
  const toolCalls = parts.flatMap((p) => (p.type === 'tool-call' ? [{ id: p.toolCallId, name: p.toolName, input: p.input }] : []));
  const finish = parts.find((p) => p.type === 'finish') as { finishReason?: string; totalUsage?: { inputTokens?: number; outputTokens?: number } } | undefined;
  return { text, reasoning, toolCalls, finish, error };
}

describe('startOpenAICompatibleServer', () => {
  it.each(['openai', 'anthropic'] as const)('streams text, reasoning, tool calls and usage in the %s format the route asks for', async (wire) => {
    const seen = await call(wire, [
      { stream: { reasoning: 'thinking it over', text: 'Here you go.', toolCalls: [{ id: 'call_1', name: 'echo', args: { text: 'alpha' } }], usage: { prompt_tokens: 11, completion_tokens: 7 } } },
    ]);
    expect(seen.error).toBeUndefined();
    expect(seen.text).toBe('Here you go.');
    expect(seen.reasoning).toBe('thinking it over');
    expect(seen.toolCalls).toEqual([{ id: 'call_1', name: 'echo', input: { text: 'alpha' } }]);
    expect(seen.finish).toMatchObject({ finishReason: 'tool-calls', totalUsage: { inputTokens: 11, outputTokens: 7 } });
    expect(server!.requests.map((r) => [r.format, r.url])).toEqual([[wire, wire === 'openai' ? '/v1/chat/completions' : '/v1/messages']]);
  });

  it.each(['openai', 'anthropic'] as const)('sends the %s provider\'s error bodies for faults by name', async (wire) => {
    const faults = ['rate_limited', 'server_error', 'overloaded', 'context_length', 'unauthorized'] as const;
    const errors: APICallError[] = [];
    const model = await modelOver(wire, faults.map((fault) => ({ fault })));
    for (const _ of faults) {
      const result = streamText({ model, prompt: 'hi', maxRetries: 0, onError: () => {} });
      for await (const part of result.fullStream) if (part.type === 'error') errors.push(part.error as APICallError);
    }
    expect(errors.every((e) => APICallError.isInstance(e))).toBe(true);
    expect(errors.map((e) => e.statusCode)).toEqual([429, 503, 529, 400, 401]);
    expect(errors[0]!.responseHeaders?.['retry-after']).toBe('0');
    const overflow = errors[3]!;
    if (wire === 'openai') expect(JSON.parse(overflow.responseBody!)).toMatchObject({ error: { code: 'context_length_exceeded' } });
    else expect(JSON.parse(overflow.responseBody!)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/^prompt is too long/) } });
    if (wire === 'anthropic') expect(errors[2]!.message).toBe('Overloaded');
  });

  it('resets the connection before any header, and a request after it is answered', async () => {
    const seen = await call('openai', [{ reset: true }]);
    expect(seen.text).toBe('');
    expect(seen.error).toBeDefined();
    expect(APICallError.isInstance(seen.error) ? seen.error.statusCode : undefined).toBeUndefined();
  });

  it('sends a raw body as it is: an empty 200 and an empty 502', async () => {
    const empty200 = await call('openai', [{ status: 200, headers: { 'content-type': 'text/event-stream' }, rawBody: '' }]);
    expect(empty200.text).toBe('');
    expect(empty200.toolCalls).toEqual([]);
    await server!.close();
    server = undefined;
    const empty502 = await call('openai', [{ status: 502, rawBody: '' }]);
    expect(APICallError.isInstance(empty502.error) && empty502.error.statusCode).toBe(502);
    expect(APICallError.isInstance(empty502.error) && empty502.error.responseBody).toBe('');
  });

  it.each(['openai', 'anthropic'] as const)('cuts a %s stream in the middle of a tool call\'s arguments', async (wire) => {
    // openai: role, name, then argument pieces; anthropic: message_start, block start, pieces.
    const seen = await call(wire, [{ broken: 'end', stream: { toolCalls: [{ id: 'call_1', name: 'echo', args: { text: 'a long argument' } }] }, afterChunks: 4 }]);
    const complete = seen.toolCalls.filter((c) => JSON.stringify(c.input) === JSON.stringify({ text: 'a long argument' }));
    expect(complete).toEqual([]);
    expect(seen.finish?.finishReason).not.toBe('tool-calls');
  });
});

const ask = (signal?: AbortSignal) =>
  fetch(`${server!.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'local-model', messages: [{ role: 'user', content: 'hi' }], stream: true }),
    ...(signal ? { signal } : {}),
  });

/** Each SSE `data:` event of the response, with the time it arrived (ms after `since`). */
async function events(response: Response, since: number): Promise<Array<{ data: string; at: number }>> {
  const out: Array<{ data: string; at: number }> = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return out;
    buffered += decoder.decode(value, { stream: true });
    for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (event.startsWith('data: ')) out.push({ data: event.slice('data: '.length), at: performance.now() - since });
    }
  }
}

/** The text the streamed deltas add up to. */
const textOf = (received: Array<{ data: string }>) =>
  received.flatMap((e) => (e.data === '[DONE]' ? [] : [(JSON.parse(e.data) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? ''])).join('');

describe('startOpenAICompatibleServer, per-reply delays', () => {
  it('answers at once with the headers, then waits delayMs before the first chunk and chunkDelayMs between chunks', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'abcdefghij', delayMs: 300, chunkDelayMs: 60 } }, { stream: { text: 'quick' } }] });
    const started = performance.now();
    const slow = await ask();
    // The headers come before the wait: a client sees the call accepted while the model "thinks".
    expect(slow.status).toBe(200);
    const received = await events(slow, started);
    expect(textOf(received)).toBe('abcdefghij');
    expect(received.at(-1)!.data).toBe('[DONE]');
    // Timers never fire early: lower bounds hold on any machine, however loaded.
    expect(received[0]!.at).toBeGreaterThanOrEqual(295);
    const chunks = received.length - 1; // [DONE] is written with the end, not delayed
    expect(received.at(-2)!.at - received[0]!.at).toBeGreaterThanOrEqual((chunks - 1) * 60 - 5);

    // The next reply has no delays of its own.
    const quick = await ask();
    expect((await events(quick, performance.now())).at(-1)!.data).toBe('[DONE]');
  });

  it('carries on when a client goes away during the wait, and serves the next request as usual', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'never sent', delayMs: 5_000 } }, { stream: { text: 'second' } }] });
    const controller = new AbortController();
    const first = await ask(controller.signal);
    expect(first.status).toBe(200);
    controller.abort();
    const second = await ask();
    expect(textOf(await events(second, performance.now()))).toBe('second');
    expect(server.requests).toHaveLength(2);
  });

  it('request(n) resolves with the n-th request once it arrives, and at once for one already there', async () => {
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'one' } }, { stream: { text: 'two' } }] });
    const second = server.request(2);
    await (await ask()).text();
    let settled = false;
    void second.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    await (await ask()).text();
    expect((await second).body.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(await server.request(1)).toBe(server.requests[0]);
  });
});
