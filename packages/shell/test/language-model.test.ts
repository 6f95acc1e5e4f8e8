import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createSessionLog, JsonlStore, MemoryStore } from '@tiller/session';
import type { Entry, Message } from '@tiller/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentOptionsError, createAgent, fromLanguageModel, type AgentEvent } from '../src/index.js';
import { startOpenAICompatibleServer, type OpenAICompatibleServer, type ServerReply } from '@tiller/testing';
import { recordEvents, recordingTools } from './helpers.js';

const SECRET = 'sk-test-7f3c9a1e5b2d4c6e8a0b';

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function localModel(replies: ServerReply[], options: { contextWindow?: number } = {}) {
  server = await startOpenAICompatibleServer({ script: replies });
  const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: SECRET, includeUsage: true });
  return fromLanguageModel(provider.chatModel('local-model'), options);
}

describe('fromLanguageModel over real HTTP (an OpenAI-compatible server on 127.0.0.1)', () => {
  it('streams text, reasoning and tool calls, runs the tools in the shell, and maps usage and finish reasons', async () => {
    const model = await localModel([
      {
        stream: {
          reasoning: 'I should echo.',
          text: 'Let me echo that.',
          toolCalls: [
            { id: 'call_a', name: 'echo', args: { text: 'alpha' } },
            { id: 'call_b', name: 'echo', args: { text: 'beta' } },
          ],
          usage: { prompt_tokens: 120, completion_tokens: 30, cached_tokens: 20 },
        },
      },
      { stream: { text: 'Echoed alpha and beta.', usage: { prompt_tokens: 200, completion_tokens: 8 } } },
    ]);
    const { echo, calls } = recordingTools();
    const agent = createAgent({ model, tools: [echo], systemPrompt: 'You echo.' });
    const events = recordEvents(agent);
    const outcome = await agent.prompt('echo alpha and beta');

    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'stop', iterations: 1 });
    expect(calls.map((c) => [c.toolCallId, c.args])).toEqual([['call_a', { text: 'alpha' }], ['call_b', { text: 'beta' }]]);
    const context = agent.session.context();
    expect(context.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'assistant']);
    const [first, reply, , , last] = context;
    expect(first).toEqual({ role: 'user', content: 'echo alpha and beta' });
    expect(reply).toMatchObject({
      role: 'assistant',
      model: 'local.chat/local-model',
      stopReason: 'toolUse',
      usage: { input: 100, cacheRead: 20, output: 30, totalTokens: 150 },
      content: [
        { type: 'thinking', thinking: 'I should echo.' },
        { type: 'text', text: 'Let me echo that.' },
        { type: 'toolCall', id: 'call_a', name: 'echo', args: { text: 'alpha' } },
        { type: 'toolCall', id: 'call_b', name: 'echo', args: { text: 'beta' } },
      ],
    });
    expect(last).toMatchObject({ role: 'assistant', stopReason: 'stop', content: [{ type: 'text', text: 'Echoed alpha and beta.' }] });

    // The tools went out as function definitions; the results came back as tool messages.
    const [firstRequest, secondRequest] = server!.requests;
    expect(firstRequest!.body.tools?.map((t) => t.function.name)).toEqual(['echo']);
    expect(firstRequest!.body.messages[0]).toEqual({ role: 'system', content: 'You echo.' });
    expect(secondRequest!.body.messages.filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', tool_call_id: 'call_a', content: 'alpha' },
      { role: 'tool', tool_call_id: 'call_b', content: 'beta' },
    ]);

    const deltas = (type: AgentEvent['type']) => events.filter((e) => e.type === type).map((e) => (e as { delta: string }).delta).join('');
    expect(deltas('text.delta')).toBe('Let me echo that.Echoed alpha and beta.');
    expect(deltas('thinking.delta')).toBe('I should echo.');
    expect(deltas('toolcall.delta')).toBe('{"text":"alpha"}{"text":"beta"}');
  });

  it('retries a 429 after the Retry-After the server asked for', async () => {
    const model = await localModel([
      { status: 429, headers: { 'retry-after': '0.05' }, body: { error: { message: 'Rate limit reached' } } },
      { status: 503, body: { error: { message: 'overloaded' } } },
      { stream: { text: 'finally' } },
    ]);
    const agent = createAgent({ model, limits: { retryBaseDelayMs: 1, retryMaxDelayMs: 100 } });
    const events = recordEvents(agent);
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    const retries = events.filter((e): e is Extract<AgentEvent, { type: 'llm.retry' }> => e.type === 'llm.retry');
    expect(retries.map((r) => r.error.kind)).toEqual(['transient', 'transient']);
    expect(retries[0]!.delayMs).toBe(50);
    expect(retries[0]!.error.message).toMatch(/429/);
    expect(server!.requests).toHaveLength(3);
  });

  it('classifies a context-length error as overflow: one forced compaction and one retry', async () => {
    const model = await localModel([
      { status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens.", code: 'context_length_exceeded' } } },
      { stream: { text: 'fits' } },
    ]);
    const agent = createAgent({ model });
    const forced: boolean[] = [];
    agent.subscribe((e) => e.type === 'compaction.started' && forced.push(e.force));
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    expect(forced).toEqual([false, true]);
  });

  it('treats input larger than the window as overflow before sending anything', async () => {
    const model = await localModel([{ stream: { text: 'unused' } }], { contextWindow: 50 });
    const agent = createAgent({ model });
    expect(await agent.prompt('x'.repeat(1_000))).toMatchObject({ status: 'failed', error: { kind: 'overflow' } });
    expect(server!.requests).toHaveLength(0);
  });

  it('retries a refused connection as a transient error', async () => {
    const closed = await startOpenAICompatibleServer({ script: [] });
    await closed.close();
    const provider = createOpenAICompatible({ name: 'local', baseURL: closed.baseURL, apiKey: SECRET });
    const agent = createAgent({ model: fromLanguageModel(provider.chatModel('local-model')), limits: { maxRetries: 2, retryBaseDelayMs: 1 } });
    const retries: string[] = [];
    agent.subscribe((e) => e.type === 'llm.retry' && retries.push(e.error.kind));
    expect(await agent.prompt('hi')).toMatchObject({ status: 'failed', error: { kind: 'transient' } });
    expect(retries).toEqual(['transient', 'transient']);
  });

  it.each(['reset', 'end', 'malformed'] as const)('retries a stream that breaks mid-message (%s) as transient, and keeps no partial reply', async (broken) => {
    const model = await localModel([{ broken, stream: { text: 'the first half and the second half' }, afterChunks: 3 }, { stream: { text: 'whole' } }]);
    const agent = createAgent({ model, limits: { retryBaseDelayMs: 1 } });
    const retries: string[] = [];
    agent.subscribe((e) => e.type === 'llm.retry' && retries.push(e.error.kind));
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    expect(retries).toEqual(['transient']);
    expect(agent.session.context().at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'whole' }] });
    expect(server!.requests).toHaveLength(2);
  });

  it('retries a server that accepts and never answers, after limits.firstTokenTimeoutMs', async () => {
    const model = await localModel([{ hang: true }, { stream: { text: 'late but whole' } }]);
    const agent = createAgent({ model, limits: { firstTokenTimeoutMs: 150, retryBaseDelayMs: 1 } });
    const retries: Array<{ kind: string; message: string }> = [];
    agent.subscribe((e) => e.type === 'llm.retry' && retries.push(e.error));
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    expect(retries).toEqual([{ kind: 'transient', message: expect.stringMatching(/streamed nothing within 150 ms \(limits\.firstTokenTimeoutMs\)/) }]);
    expect(agent.session.context().at(-1)).toMatchObject({ content: [{ type: 'text', text: 'late but whole' }] });
  });

  it('retries a stream that goes quiet mid-message, after limits.streamIdleTimeoutMs, and fails once the retries run out', async () => {
    const quiet: ServerReply = { silent: true, stream: { text: 'the first half and the second half' }, afterChunks: 3 };
    const model = await localModel([quiet, { stream: { text: 'whole' } }, quiet, quiet]);
    const agent = createAgent({ model, limits: { streamIdleTimeoutMs: 150, maxRetries: 1, retryBaseDelayMs: 1 } });
    const retries: string[] = [];
    agent.subscribe((e) => e.type === 'llm.retry' && retries.push(e.error.message));
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    expect(retries).toEqual([expect.stringMatching(/went quiet for 150 ms \(limits\.streamIdleTimeoutMs\)/)]);
    expect(await agent.prompt('again')).toMatchObject({ status: 'failed', error: { kind: 'transient', message: expect.stringMatching(/went quiet/) } });
  });

  it('checks the model-call time limits with the other options', () => {
    expect(() => createAgent({ model: fromLanguageModel('x' as never), limits: { firstTokenTimeoutMs: 1_000, streamIdleTimeoutMs: 1_000 } })).not.toThrow();
    expect(() => createAgent({ model: fromLanguageModel('x' as never), limits: { firstTokenTimeoutMs: 0 } })).toThrow(AgentOptionsError);
    expect(() => createAgent({ model: fromLanguageModel('x' as never), limits: { streamIdleTimeoutMs: -1 } })).toThrow(/streamIdleTimeoutMs/);
  });

  it('fails at once on a bad key (fatal)', async () => {
    const model = await localModel([{ status: 401, body: { error: { message: 'Invalid API key' } } }]);
    const agent = createAgent({ model });
    expect(await agent.prompt('hi')).toMatchObject({ status: 'failed', error: { kind: 'fatal' } });
    expect(server!.requests).toHaveLength(1);
  });

  it('aborts the HTTP stream', async () => {
    const model = await localModel([{ hang: true }]);
    const agent = createAgent({ model });
    const done = agent.prompt('hi');
    await new Promise((r) => setTimeout(r, 50));
    await agent.abort('user left');
    expect(await done).toMatchObject({ status: 'aborted', reason: 'user left' });
  });

  it('sends the API key only to the server: never to the session file, the journal or an event', async () => {
    const model = await localModel([
      { stream: { toolCalls: [{ id: 'call_k', name: 'echo', args: { text: 'x' } }] } },
      { status: 503, body: { error: { message: 'overloaded' } } },
      { stream: { text: 'ok', usage: { prompt_tokens: 5, completion_tokens: 1 } } },
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'tiller-secret-'));
    try {
      const store = await JsonlStore.open(join(dir, 'chat.jsonl'), { create: true });
      const { echo } = recordingTools();
      const agent = createAgent({ model, tools: [echo], session: createSessionLog(store), limits: { retryBaseDelayMs: 1 } });
      const events = recordEvents(agent);
      await agent.prompt('hi');
      await store.close();
      expect(server!.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
      const stored = [
        await readFile(join(dir, 'chat.jsonl'), 'utf8'),
        await readFile(join(dir, 'chat.journal.jsonl'), 'utf8'),
        JSON.stringify(events),
        JSON.stringify(agent.snapshot.context),
      ].join('\n');
      expect(stored).toContain('overloaded');
      expect(stored).not.toContain(SECRET);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("fromLanguageModel over Anthropic's messages API (its SSE on 127.0.0.1)", () => {
  it('sends the thinking of a tool-calling reply back as it came: a redacted block with its data, a thinking block with its signature', async () => {
    // With extended thinking on, Anthropic refuses the next request of a tool round unless the
    // reply's thinking comes back unchanged and first; a redacted block is only its encrypted data.
    server = await startOpenAICompatibleServer({
      script: [
        { stream: { redactedThinking: 'ENCRYPTED-1', reasoning: 'I should echo.', toolCalls: [{ id: 'toolu_1', name: 'echo', args: { text: 'alpha' } }] } },
        { stream: { text: 'Echoed alpha.' } },
      ],
    });
    const model = fromLanguageModel(createAnthropic({ baseURL: server.baseURL, apiKey: SECRET })('claude-sonnet-4-5'));
    const { echo } = recordingTools();
    const agent = createAgent({ model, tools: [echo] });
    expect(await agent.prompt('echo alpha')).toMatchObject({ status: 'completed' });

    expect(agent.session.context()[1]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: '', signature: 'ENCRYPTED-1', redacted: true },
        { type: 'thinking', thinking: 'I should echo.', signature: 'sig-1' },
        { type: 'toolCall', id: 'toolu_1', name: 'echo' },
      ],
    });
    const sent = server.requests[1]!.body.messages[1] as { role: string; content: Array<Record<string, unknown>> };
    expect(sent.role).toBe('assistant');
    expect(sent.content.map((block) => block.type)).toEqual(['redacted_thinking', 'thinking', 'tool_use']);
    expect(sent.content[0]).toEqual({ type: 'redacted_thinking', data: 'ENCRYPTED-1' });
    expect(sent.content[1]).toEqual({ type: 'thinking', thinking: 'I should echo.', signature: 'sig-1' });
  });

  it('sends no reply that has nothing in it: an empty reply, or one of blank text, stays in the log and the context, and out of the requests', async () => {
    // Anthropic refuses an assistant message with no content, or with a text block of only
    // whitespace, on every later request: one such reply would end the session for good.
    server = await startOpenAICompatibleServer({ script: [{ stream: {} }, { stream: { text: ' \n ' } }, { stream: { text: 'Here.' } }] });
    const model = fromLanguageModel(createAnthropic({ baseURL: server.baseURL, apiKey: SECRET })('claude-sonnet-4-5'));
    const agent = createAgent({ model, tools: [] });
    for (const prompt of ['first', 'second', 'third']) expect(await agent.prompt(prompt)).toMatchObject({ status: 'completed' });

    const replies = agent.session.path().flatMap((e) => (e.kind === 'message' && e.message.role === 'assistant' ? [e.message.content] : []));
    expect(replies).toEqual([[], [{ type: 'text', text: ' \n ' }], [{ type: 'text', text: 'Here.' }]]);
    const last = server.requests[2]!.body.messages as Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    expect(last.map((m) => m.role)).toEqual(['user']);
    expect(last[0]!.content.map((block) => block.text)).toEqual(['first', 'second', 'third']);
  });

  it('sends two replies with a blank user message between them (an imported session) as one assistant turn, so the roles still alternate', async () => {
    // The blank message stays in the log and out of the request; Anthropic wants user and
    // assistant turns in alternation, and its adapter joins the two replies left side by side.
    const said: Message[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: [{ type: 'text', text: 'One.' }] },
      { role: 'user', content: [{ type: 'text', text: '   ' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Two.' }] },
    ];
    const entries: Entry[] = said.map((message, i) => ({ kind: 'message', id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, at: `2026-01-01T00:00:0${i}.000Z`, message }));
    server = await startOpenAICompatibleServer({ script: [{ stream: { text: 'Three.' } }] });
    const model = fromLanguageModel(createAnthropic({ baseURL: server.baseURL, apiKey: SECRET })('claude-sonnet-4-5'));
    const agent = createAgent({ model, tools: [], session: createSessionLog(new MemoryStore(entries)) });
    expect(await agent.prompt('third')).toMatchObject({ status: 'completed' });

    expect(agent.session.path()[2]).toMatchObject({ id: 'm2', message: { role: 'user' } });
    const sent = server.requests[0]!.body.messages as Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent[1]!.content.map((block) => block.text)).toEqual(['One.', 'Two.']);
    expect(sent[2]!.content.map((block) => block.text)).toEqual(['third']);
  });
});
