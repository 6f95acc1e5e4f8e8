import { Agent as PiAgent, type AgentMessage, type AgentTool, type StreamFn } from '@mariozechner/pi-agent-core';
import { createAssistantMessageEventStream, Type, type AssistantMessage as PiAssistantMessage, type Model } from '@mariozechner/pi-ai';
import type { AssistantMessage, Entry, ModelStreamPart, TillerModel } from '@tiller/core';
import { ANSWER, NOOP_TOOL, SYSTEM_PROMPT, USAGE, wantsTool } from './instant-model.js';
import { copyFile } from 'node:fs/promises';
import { createSessionLog, JsonlStore, MemoryStore } from '@tiller/session';
import { createAgent, defineTool, fileJournal, journalPathFor, type Agent } from '@tiller/shell';
import { z } from 'zod';

/** A Tiller model that streams its whole answer as one `done` part, as soon as it is asked. */
export function instantTillerModel(): TillerModel {
  let calls = 0;
  async function* answer(lastRole: string | undefined): AsyncGenerator<ModelStreamPart> {
    calls++;
    const message: AssistantMessage = wantsTool(lastRole)
      ? { role: 'assistant', content: [{ type: 'toolCall', id: `call-${calls}`, name: NOOP_TOOL, args: {} }] }
      : { role: 'assistant', content: [{ type: 'text', text: ANSWER }] };
    const stopReason = wantsTool(lastRole) ? 'toolUse' : 'stop';
    yield { type: 'done', message: { ...message, stopReason, usage: USAGE }, stopReason, usage: USAGE };
  }
  return { id: 'bench/instant', stream: (request) => answer(request.messages.at(-1)?.role) };
}

const noopTool = () => defineTool({ name: NOOP_TOOL, description: 'Does nothing.', input: z.object({}), execute: () => 'ok' });

/** A Tiller agent over `entries` (a `MemoryStore` session), the default compactor and an in-memory journal. */
export function tillerAgent(entries: readonly Entry[]): Agent {
  return createAgent({
    model: instantTillerModel(),
    tools: [noopTool()],
    session: createSessionLog(new MemoryStore(entries)),
    systemPrompt: SYSTEM_PROMPT,
  });
}

/** How the durable Tiller agent keeps its session: appends reach the disk within the batch interval. */
export const SESSION_FSYNC = 'batch';

/**
 * Writes `entries` as a session file at `path` (untimed setup: a durable agent's history is
 * already on disk when it starts).
 */
export async function writeSessionFile(path: string, entries: readonly Entry[]): Promise<void> {
  const store = await JsonlStore.open(path, { create: { id: 'bench-agent', createdAt: '2026-01-01T00:00:00.000Z' }, fsync: 'never' });
  await store.append(entries);
  await store.close();
}

/**
 * A durable Tiller agent: a copy of the session file `template` at `path`, opened as a
 * `JsonlStore` with `fsync: 'batch'`, and its file journal beside it (`journalPathFor`), which
 * by default reaches the disk before each of its appends resolves (it is written ahead of the
 * session, so it must be at least as durable). `close()` releases both files.
 */
export async function tillerFileAgent(template: string, path: string): Promise<Agent> {
  await copyFile(template, path);
  const store = await JsonlStore.open(path, { fsync: SESSION_FSYNC });
  return createAgent({
    model: instantTillerModel(),
    tools: [noopTool()],
    session: createSessionLog(store),
    journal: fileJournal(journalPathFor(path)),
    systemPrompt: SYSTEM_PROMPT,
  });
}

const PI_MODEL: Model<'bench'> = {
  id: 'instant',
  name: 'instant',
  api: 'bench',
  provider: 'bench',
  baseUrl: '',
  reasoning: false,
  input: ['text'],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 200_000,
  maxTokens: 8_192,
};

const PI_USAGE = { ...USAGE, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** pi's stream function for the same model: one `done` event on an event stream, pushed before it is returned. */
export function instantPiStream(): StreamFn {
  let calls = 0;
  return (model, context) => {
    calls++;
    const tool = wantsTool(context.messages.at(-1)?.role);
    const message: PiAssistantMessage = {
      role: 'assistant',
      content: tool ? [{ type: 'toolCall', id: `call-${calls}`, name: NOOP_TOOL, arguments: {} }] : [{ type: 'text', text: ANSWER }],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: PI_USAGE,
      stopReason: tool ? 'toolUse' : 'stop',
      timestamp: Date.now(),
    };
    const stream = createAssistantMessageEventStream();
    stream.push({ type: 'done', reason: tool ? 'toolUse' : 'stop', message });
    return stream;
  };
}

/** pi-agent-core's `Agent` over `messages`, with the same instant model and no-op tool. */
export function piAgent(messages: readonly AgentMessage[]): PiAgent {
  const noop: AgentTool = {
    name: NOOP_TOOL,
    label: NOOP_TOOL,
    description: 'Does nothing.',
    parameters: Type.Object({}),
    execute: async () => ({ content: [{ type: 'text', text: 'ok' }], details: undefined }),
  };
  return new PiAgent({
    initialState: { model: PI_MODEL, messages: [...messages], tools: [noop], systemPrompt: SYSTEM_PROMPT },
    streamFn: instantPiStream(),
  });
}
