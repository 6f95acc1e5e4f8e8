import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAgent, fromLanguageModel } from '@tiller/shell';
import { describe, expect, it } from 'vitest';
import { scriptedLanguageModel, scriptedModel, startOpenAICompatibleServer } from '../src/index.js';

const fast = { maxRetries: 2, retryBaseDelayMs: 0, retryMaxDelayMs: 1 };

describe('the doubles a host tests its wiring with', () => {
  it('scriptedLanguageModel: a host sees retries, fatal errors and cut streams classified as from a provider', async () => {
    const model = scriptedLanguageModel(['rate_limited', 'server_error', { text: 'hello', usage: { input: 12, output: 3 } }]);
    const agent = createAgent({ model: fromLanguageModel(model), limits: fast });
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    expect(model.calls).toHaveLength(3);
    expect(agent.snapshot.context.view.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'hello' }], usage: { input: 12 } });

    const refused = createAgent({ model: fromLanguageModel(scriptedLanguageModel(['fatal'])), limits: fast });
    expect(await refused.prompt('hi')).toMatchObject({ status: 'failed', error: { kind: 'fatal' } });
    const cut = createAgent({ model: fromLanguageModel(scriptedLanguageModel(['cut_stream', 'cut_stream', 'cut_stream'])), limits: fast });
    expect(await cut.prompt('hi')).toMatchObject({ status: 'failed', error: { kind: 'transient' } });
  });

  it('scriptedLanguageModel: tool calls arrive as the shell runs them', async () => {
    const model = scriptedLanguageModel([{ toolCalls: [{ id: 't1', name: 'missing', args: { a: 1 } }] }, { text: 'done' }]);
    const agent = createAgent({ model: fromLanguageModel(model), limits: fast });
    expect(await agent.prompt('go')).toMatchObject({ status: 'completed', iterations: 1 });
    expect(model.calls[1]!.roles).toEqual(['user', 'assistant', 'tool']);
  });

  it('startOpenAICompatibleServer: faults by name, a cut stream, a context-length error, over real HTTP', async () => {
    const server = await startOpenAICompatibleServer({
      script: [{ fault: 'rate_limited' }, { stream: { text: 'partial answer', cutAfterChunks: 2 } }, { stream: { text: 'whole answer', usage: { prompt_tokens: 9, completion_tokens: 2 } } }, { fault: 'context_length' }],
    });
    try {
      const provider = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, includeUsage: true });
      const agent = createAgent({ model: fromLanguageModel(provider('local-model')), limits: fast });
      expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
      expect(server.requests).toHaveLength(3);
      expect(agent.snapshot.context.view.at(-1)).toMatchObject({ content: [{ type: 'text', text: 'whole answer' }] });
      // The context-length error forces a compaction and one retry, which finds no reply scripted (a 500).
      expect(await agent.prompt('again')).toMatchObject({ status: 'failed' });
    } finally {
      await server.close();
    }
  });

  it('scriptedModel: faults by name', async () => {
    const agent = createAgent({ model: scriptedModel(['transient', 'rate_limited', { text: 'ok' }]), limits: fast });
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    const overflow = createAgent({ model: scriptedModel(['overflow', 'overflow']), limits: fast });
    expect(await overflow.prompt('hi')).toMatchObject({ status: 'failed', error: { kind: 'overflow' } });
  });
});
