import { createAgent, fromLanguageModel } from '@tiller/shell';
import { streamText } from 'ai';
import { streamingLanguageModel } from './ai-sdk-loop.js';
import { SYSTEM_PROMPT } from './instant-model.js';

const TEXT = 'tok ';

/** One streamed answer of `count` deltas through a Tiller agent: how many `text.delta` events its subscriber saw. */
export async function tillerDeltas(count: number): Promise<number> {
  const agent = createAgent({ model: fromLanguageModel(streamingLanguageModel(count, TEXT)), systemPrompt: SYSTEM_PROMPT });
  let seen = 0;
  agent.subscribe((event) => {
    if (event.type === 'text.delta') seen++;
  });
  await agent.prompt('stream');
  await agent.close();
  return seen;
}

/** The same stream read through the AI SDK's `streamText`: how many text parts `textStream` gave. */
export async function aiSdkDeltas(count: number): Promise<number> {
  const result = streamText({ model: streamingLanguageModel(count, TEXT), system: SYSTEM_PROMPT, prompt: 'stream' });
  let seen = 0;
  for await (const _ of result.textStream) seen++;
  return seen;
}

