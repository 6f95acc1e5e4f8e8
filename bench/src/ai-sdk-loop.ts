import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3GenerateResult, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider';
import { generateText, stepCountIs, tool, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { ANSWER, NOOP_TOOL, SYSTEM_PROMPT, USAGE, wantsTool, type BenchLoop } from './instant-model.js';

/** The instant model's fixed usage in the provider specification's shape. */
const V3_USAGE: LanguageModelV3Usage = {
  inputTokens: { total: USAGE.input, noCache: USAGE.input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: USAGE.output, text: USAGE.output, reasoning: 0 },
};

/** The role of the last message of a provider prompt: the AI SDK calls a tool result's message `tool`. */
function lastRole(options: LanguageModelV3CallOptions): string | undefined {
  const role = options.prompt.at(-1)?.role;
  return role === 'tool' ? 'toolResult' : role;
}

/**
 * The AI SDK's own mock model (`MockLanguageModelV3` from `ai/test`) answering as the instant
 * model does: a call to the no-op tool, unless the last message is its result, then a short text.
 * The mock keeps every call's options (the whole prompt) in `doGenerateCalls`; a provider keeps
 * nothing, so the list is emptied on every call, or it would hold a copy of the history per call.
 */
export function instantLanguageModel(): MockLanguageModelV3 {
  let calls = 0;
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    provider: 'bench',
    modelId: 'instant',
    doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
      model.doGenerateCalls.length = 0;
      calls++;
      const tool = wantsTool(lastRole(options));
      const content: LanguageModelV3Content[] = tool
        ? [{ type: 'tool-call', toolCallId: `call-${calls}`, toolName: NOOP_TOOL, input: '{}' }]
        : [{ type: 'text', text: ANSWER }];
      return { content, finishReason: { unified: tool ? 'tool-calls' : 'stop', raw: undefined }, usage: V3_USAGE, warnings: [] };
    },
  });
  return model;
}

/**
 * A mock model whose stream is `deltas` text deltas of `text` each, then the finish; the same
 * stream for the shell (through `fromLanguageModel`) and for the AI SDK's `streamText`.
 */
export function streamingLanguageModel(deltas: number, text: string): MockLanguageModelV3 {
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    provider: 'bench',
    modelId: 'streaming',
    doStream: async () => {
      model.doStreamCalls.length = 0;
      let sent = -1;
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        pull(controller) {
          if (sent === -1) controller.enqueue({ type: 'text-start', id: 't' });
          else if (sent < deltas) controller.enqueue({ type: 'text-delta', id: 't', delta: text });
          else {
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: V3_USAGE });
            controller.close();
          }
          sent++;
        },
      });
      return { stream };
    },
  });
  return model;
}

/**
 * The AI SDK's loop as its guide writes it: `generateText` with the tools and `stopWhen`, the
 * host keeping the conversation and appending each turn's `response.messages` to it.
 */
export function aiSdkLoop(history: readonly ModelMessage[]): BenchLoop & { readonly messages: readonly ModelMessage[] } {
  const model = instantLanguageModel();
  const tools = { [NOOP_TOOL]: tool({ description: 'Does nothing.', inputSchema: z.object({}), execute: async () => 'ok' }) };
  const messages: ModelMessage[] = [...history];
  return {
    messages,
    async prompt(text) {
      messages.push({ role: 'user', content: text });
      const result = await generateText({ model, system: SYSTEM_PROMPT, tools, messages, stopWhen: stepCountIs(25) });
      messages.push(...result.response.messages);
      return result;
    },
  };
}
