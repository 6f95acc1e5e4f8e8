import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BaseMessage } from '@langchain/core/messages';
import { journalPathFor, toModelMessages } from '@tiller/shell';
import type { ModelMessage } from 'ai';
import { aiSdkLoop } from './ai-sdk-loop.js';
import type { Conversation } from './conversation.js';
import { piAgent, tillerAgent, tillerFileAgent, writeSessionFile } from './instant-agents.js';
import type { BenchLoop } from './instant-model.js';
import { langGraphLoop, toLangChainMessages } from './langgraph-loop.js';

/** The agent loops the per-call benchmark runs side by side. */
export const LOOP_IDS = ['tiller', 'tiller-empty', 'tiller-jsonl', 'tiller-jsonl-empty', 'pi-agent-core', 'ai-sdk', 'langgraph', 'langgraph-memory', 'langgraph-sqlite'] as const;
export type LoopId = (typeof LOOP_IDS)[number];

/** How the results page names each loop. */
export const LOOP_NAMES: Record<LoopId, string> = {
  tiller: 'Tiller, memory session',
  'tiller-empty': 'the same over an empty history',
  'tiller-jsonl': "Tiller, JSONL session (fsync 'batch') + file journal",
  'tiller-jsonl-empty': 'the same over an empty history',
  'pi-agent-core': 'pi-agent-core',
  'ai-sdk': 'AI SDK generateText loop',
  langgraph: 'LangGraph, no checkpointer',
  'langgraph-memory': 'LangGraph + MemorySaver',
  'langgraph-sqlite': 'LangGraph + SQLite checkpointer',
};

export function isLoopId(value: string): value is LoopId {
  return (LOOP_IDS as readonly string[]).includes(value);
}

/**
 * Makes fresh loops over one conversation, each over its own copy of it, as often as asked.
 * The copies in the AI SDK's and LangChain's shapes are made once, on first use; file-backed
 * loops get their own files under `dir`, removed when the loop is closed.
 */
export function loopFactory(conversation: Conversation, dir: string) {
  let modelMessages: ModelMessage[] | undefined;
  let langChainMessages: BaseMessage[] | undefined;
  const sessionTemplates = new Map<string, Promise<string>>();
  let made = 0;
  /** A session file holding `entries`, written once under `dir` as `name`, for the file-backed loops to copy. */
  const template = (name: string, entries: Conversation['entries']): Promise<string> => {
    if (!sessionTemplates.has(name)) sessionTemplates.set(name, writeTemplate(join(dir, name), entries));
    return sessionTemplates.get(name)!;
  };
  const durable = async (path: string, sessionTemplate: string): Promise<BenchLoop> => {
    const agent = await tillerFileAgent(sessionTemplate, path);
    return {
      prompt: (text) => agent.prompt(text),
      async close() {
        await agent.close();
        await agent.session.close();
        await Promise.all([rm(path, { force: true }), rm(journalPathFor(path), { force: true })]);
      },
    };
  };

  async function make(id: LoopId): Promise<BenchLoop> {
    const n = made++;
    switch (id) {
      case 'tiller': {
        const agent = tillerAgent(conversation.entries);
        return { prompt: (text) => agent.prompt(text), close: () => agent.close() };
      }
      // The same agent without the history, timed in the process that holds it: what the history
      // itself adds to a call, apart from how fast this process runs.
      case 'tiller-empty': {
        const agent = tillerAgent([]);
        return { prompt: (text) => agent.prompt(text), close: () => agent.close() };
      }
      case 'tiller-jsonl':
        return durable(join(dir, `tiller-${n}.jsonl`), await template('history.jsonl', conversation.entries));
      // The durable agent over an empty session file, timed in the process that holds the history's:
      // what the history adds to a durable call, apart from how fast this process and its disk run.
      case 'tiller-jsonl-empty':
        return durable(join(dir, `tiller-${n}.jsonl`), await template('empty.jsonl', []));
      case 'pi-agent-core': {
        const agent = piAgent(conversation.piMessages);
        return { prompt: (text) => agent.prompt(text) };
      }
      case 'ai-sdk':
        return aiSdkLoop((modelMessages ??= toModelMessages(conversation.messages)));
      case 'langgraph':
        return langGraphLoop((langChainMessages ??= toLangChainMessages(conversation.messages)), { kind: 'none' });
      case 'langgraph-memory':
        return langGraphLoop((langChainMessages ??= toLangChainMessages(conversation.messages)), { kind: 'memory' });
      case 'langgraph-sqlite': {
        await mkdir(dir, { recursive: true });
        const file = join(dir, `langgraph-${n}.sqlite`);
        const loop = await langGraphLoop((langChainMessages ??= toLangChainMessages(conversation.messages)), { kind: 'sqlite', file });
        return {
          prompt: (text) => loop.prompt(text),
          async close() {
            await loop.close?.();
            await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(file + suffix, { force: true })));
          },
        };
      }
      default: {
        const unknown: never = id;
        throw new TypeError(`unknown loop ${String(unknown)}`);
      }
    }
  }
  return { make };
}

async function writeTemplate(path: string, entries: Conversation['entries']): Promise<string> {
  await mkdir(dirname(path), { recursive: true });
  await rm(path, { force: true });
  await writeSessionFile(path, entries);
  return path;
}
