import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from './openai-compatible-server.js';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
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
