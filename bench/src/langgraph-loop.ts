import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { MemorySaver, type BaseCheckpointSaver } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import type { Message } from '@tiller/core';
import { z } from 'zod';
import { ANSWER, NOOP_TOOL, SYSTEM_PROMPT, USAGE, wantsTool, type BenchLoop } from './instant-model.js';
import { sqliteCheckpointing, type SqliteSaver } from './sqlite-checkpointer.js';

/** The last message's role in the instant model's words: LangChain calls a tool result `tool`. */
function lastRole(messages: readonly BaseMessage[]): string | undefined {
  const type = messages.at(-1)?.getType();
  return type === 'tool' ? 'toolResult' : type;
}

/** A chat model that answers at once, as the instant model does; tools are bound by taking no notice of them. */
export class InstantChatModel extends BaseChatModel {
  #calls = 0;

  _llmType(): string {
    return 'bench-instant';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.#calls++;
    const usage_metadata = { input_tokens: USAGE.input, output_tokens: USAGE.output, total_tokens: USAGE.totalTokens };
    const message = wantsTool(lastRole(messages))
      ? new AIMessage({ content: '', tool_calls: [{ id: `call-${this.#calls}`, name: NOOP_TOOL, args: {}, type: 'tool_call' }], usage_metadata })
      : new AIMessage({ content: ANSWER, usage_metadata });
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}

/** Tiller's messages as LangChain's, each with an id (as a history loaded from a store has). */
export function toLangChainMessages(messages: readonly Message[]): BaseMessage[] {
  return messages.map((message, i): BaseMessage => {
    const id = `h${i}`;
    switch (message.role) {
      case 'user':
        return new HumanMessage({ id, content: typeof message.content === 'string' ? message.content : message.content.flatMap((p) => (p.type === 'text' ? [{ type: 'text', text: p.text }] : [])) });
      case 'assistant': {
        const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
        const tool_calls = message.content.flatMap((p) => (p.type === 'toolCall' ? [{ id: p.id, name: p.name, args: p.args as Record<string, unknown>, type: 'tool_call' as const }] : []));
        return new AIMessage({ id, content: text, tool_calls });
      }
      case 'toolResult':
        return new ToolMessage({
          id,
          tool_call_id: message.toolCallId,
          name: message.toolName,
          content: message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n'),
          status: message.isError ? 'error' : 'success',
        });
      default: {
        const unknown: never = message;
        throw new TypeError(`unknown message ${JSON.stringify(unknown)}`);
      }
    }
  });
}

/** Where LangGraph keeps the conversation between turns. */
export type Checkpointing = { kind: 'none' } | { kind: 'memory' } | { kind: 'sqlite'; file: string };

const noopTool = (): StructuredToolInterface => tool(async () => 'ok', { name: NOOP_TOOL, description: 'Does nothing.', schema: z.object({}) });

/**
 * LangGraph's prebuilt ReAct agent (`createReactAgent`) over `history`. Without a checkpointer the
 * host keeps the messages and passes them all in on every turn, as LangGraph's guide does; with
 * one, the history is written into the thread once (untimed) and each turn sends only its prompt.
 * The SQLite checkpointer is optional (see sqlite-checkpointer.ts): asked for where it is missing,
 * this throws with the reason.
 */
export async function langGraphLoop(
  history: readonly BaseMessage[],
  checkpointing: Checkpointing,
): Promise<BenchLoop & { messages(): Promise<BaseMessage[]>; readonly sqlite?: SqliteSaver['db'] }> {
  const sqlite = checkpointing.kind === 'sqlite' ? await openSqlite(checkpointing.file) : undefined;
  const checkpointer: BaseCheckpointSaver | undefined = checkpointing.kind === 'memory' ? new MemorySaver() : sqlite;
  const agent = createReactAgent({ llm: new InstantChatModel({}), tools: [noopTool()], prompt: SYSTEM_PROMPT, ...(checkpointer ? { checkpointer } : {}) });
  const config = { configurable: { thread_id: 'bench' }, recursionLimit: 60 };
  let turn = 0;
  if (!checkpointer) {
    let messages: BaseMessage[] = [...history];
    return {
      async prompt(text) {
        const state = await agent.invoke({ messages: [...messages, new HumanMessage({ id: `p${turn++}`, content: text })] }, config);
        messages = state.messages;
        return state;
      },
      messages: async () => messages,
    };
  }
  if (history.length > 0) await agent.updateState(config, { messages: [...history] }, 'agent');
  return {
    ...(sqlite ? { sqlite: sqlite.db } : {}),
    prompt: (text) => agent.invoke({ messages: [new HumanMessage({ id: `p${turn++}`, content: text })] }, config),
    messages: async () => (await agent.getState(config)).values.messages as BaseMessage[],
    async close() {
      sqlite?.db.close();
    },
  };
}

async function openSqlite(file: string): Promise<SqliteSaver> {
  const checkpointing = await sqliteCheckpointing();
  if (!checkpointing.available) throw new Error(`LangGraph's SQLite checkpointer is not available: ${checkpointing.reason}`);
  return checkpointing.open(file);
}
