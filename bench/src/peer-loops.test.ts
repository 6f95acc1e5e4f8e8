import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journalPathFor, toModelMessages } from '@tiller/shell';

import type { GenerateTextResult, ToolSet } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiSdkLoop } from './ai-sdk-loop.js';
import { agentHistory } from './conversation.js';
import { tillerFileAgent, writeSessionFile } from './instant-agents.js';
import { langGraphLoop, toLangChainMessages } from './langgraph-loop.js';
import { LOOP_IDS, loopFactory } from './loops.js';
import { sqliteCheckpointing } from './sqlite-checkpointer.js';

const HISTORY = 200;
const conversation = agentHistory(HISTORY);
const sqlite = await sqliteCheckpointing();
const withoutSqlite = sqlite.available ? '' : ` (skipped: ${sqlite.reason})`;

describe('the peer loops over the same conversation', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tiller-bench-loops-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('AI SDK: a turn is two model calls (steps) and one run of the no-op tool, and adds four messages', async () => {
    // What Tiller would send of the history: a message that says nothing is left out.
    const history = toModelMessages(conversation.messages);
    const loop = aiSdkLoop(history);
    for (const text of ['first', 'second']) {
      const result = (await loop.prompt(text)) as GenerateTextResult<ToolSet, never>;
      expect(result.steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
      expect(result.text).toBe('done');
    }
    const added = loop.messages.slice(history.length);
    expect(added.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(added[2]).toMatchObject({ role: 'tool', content: [{ type: 'tool-result', toolName: 'noop', output: { type: 'text', value: 'ok' } }] });
  });

  for (const kind of ['none', 'memory', 'sqlite'] as const) {
    const skipped = kind === 'sqlite' && !sqlite.available;
    it.skipIf(skipped)(`LangGraph (${kind === 'none' ? 'no checkpointer' : kind}): the same two model calls and one tool run, on top of the whole history${kind === 'sqlite' ? withoutSqlite : ''}`, async () => {
      const loop = await langGraphLoop(toLangChainMessages(conversation.messages), kind === 'sqlite' ? { kind, file: join(dir, 'checkpoints.sqlite') } : { kind });
      for (const text of ['first', 'second']) await loop.prompt(text);
      const messages = await loop.messages();
      expect(messages).toHaveLength(HISTORY + 8);
      const added = messages.slice(HISTORY);
      expect(added.map((m) => m.getType())).toEqual(['human', 'ai', 'tool', 'ai', 'human', 'ai', 'tool', 'ai']);
      expect(added[2]).toMatchObject({ content: 'ok', name: 'noop' });
      expect(added[3]?.content).toBe('done');
      await loop.close?.();
    });
  }

  it("the durable Tiller agent appends each turn's four entries to its session file and journals the turn beside it", async () => {
    const template = join(dir, 'template.jsonl');
    await writeSessionFile(template, conversation.entries);
    const path = join(dir, 'durable.jsonl');
    const agent = await tillerFileAgent(template, path);
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed', stopReason: 'stop' });
    await agent.close();
    await agent.session.close();
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    // The header, the history, then the turn.
    expect(lines).toHaveLength(1 + HISTORY + 4);
    const journal = (await readFile(journalPathFor(path), 'utf8')).trim().split('\n');
    expect(JSON.parse(journal[0]!)).toMatchObject({ type: 'header' });
    expect(journal.length).toBeGreaterThan(4);
  });

  it(`every loop the benchmark names can be made, prompted and closed, leaving no file behind${withoutSqlite}`, async () => {
    const loopsDir = join(dir, 'factory');
    const factory = loopFactory(agentHistory(40), loopsDir);
    const entries = agentHistory(40).entries.length;
    for (const id of LOOP_IDS.filter((id) => sqlite.available || id !== 'langgraph-sqlite')) {
      const loop = await factory.make(id);
      await loop.prompt('hello');
      await loop.close?.();
    }
    // Only the session files the durable loops copy: the history, and the empty one of the durable agent's twin.
    expect((await readdir(loopsDir)).sort()).toEqual(['empty.jsonl', 'history.jsonl']);
    expect((await readFile(join(loopsDir, 'empty.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(1);
    expect((await readFile(join(loopsDir, 'history.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(1 + entries);
  });
});
