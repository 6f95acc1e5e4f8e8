import { Agent as PiAgent, type AgentMessage, type AgentTool, type StreamFn } from '@mariozechner/pi-agent-core';
import { createAssistantMessageEventStream, Type, type AssistantMessage as PiAssistantMessage, type Model } from '@mariozechner/pi-ai';
import type { AssistantMessage, Entry, ModelStreamPart, TillerModel, Usage } from '@tiller/core';
import { createSessionLog, importPiSession, MemoryStore } from '@tiller/session';
import { createAgent, defineTool, type Agent } from '@tiller/shell';
import { z } from 'zod';
import { messageHistory } from './message-history.js';
import { pi, piOpen, type PiEntry } from './pi.js';
import { seedSessionText } from './seed-session.js';
import type { PiLine } from './scale-session.js';

/**
 * Both sides of the per-call overhead benchmark: an agent over a given history whose model answers
 * at once, without a network, and whose one tool does nothing. Each prompt makes two model calls:
 * the first asks for the no-op tool, the second (seeing the tool's result last) answers with text.
 * So a turn is two model calls and one tool run on either side, and adds four messages (the
 * prompt, the tool call, its result, the answer).
 */
export const CALLS_PER_TURN = 2;

export const NOOP_TOOL = 'noop';
const SYSTEM_PROMPT = 'You are the benchmark agent.';
const ANSWER = 'done';
/** Both models report the same usage, as a provider would. */
const USAGE: Usage = { input: 1000, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 1020 };

/** What the instant model answers: a call to the no-op tool, unless the last message is its result. */
function wantsTool(lastRole: string | undefined): boolean {
  return lastRole !== 'toolResult';
}

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

/** A Tiller agent over `entries` (a `MemoryStore` session), the default compactor and an in-memory journal. */
export function tillerAgent(entries: readonly Entry[]): Agent {
  const noop = defineTool({ name: NOOP_TOOL, description: 'Does nothing.', input: z.object({}), execute: () => 'ok' });
  return createAgent({
    model: instantTillerModel(),
    tools: [noop],
    session: createSessionLog(new MemoryStore(entries)),
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

/**
 * The same conversation of `count` messages for both sides: the recorded session's messages
 * repeated (`messageHistory`), imported as Tiller entries and turned into pi's context messages.
 */
export function agentHistory(count: number): { entries: Entry[]; messages: AgentMessage[] } {
  const history = messageHistory(piOpen(seedSessionText()).entries as unknown as PiLine[], count);
  const header = { type: 'session', version: 3, id: `bench-agent-${count}`, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/bench' };
  const entries = importPiSession([header, ...history].map((line) => JSON.stringify(line)).join('\n')).entries;
  const piEntries = history as unknown as PiEntry[];
  const messages = pi.buildSessionContext(piEntries, piEntries.at(-1)?.id ?? null, new Map(piEntries.map((e) => [e.id, e]))).messages;
  if (messages.length !== count || entries.length !== count) throw new Error(`expected ${count} messages, pi has ${messages.length}, Tiller ${entries.length}`);
  return { entries, messages };
}
