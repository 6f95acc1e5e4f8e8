import type { CompactionEntry, Message } from '@tiller/core';
import { WindowManager } from '@tiller/compaction';
import { defineTool } from '@tiller/shell';
import { scriptedModel, type ScriptedCall } from '@tiller/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { connect, type LocalServer, serve, startLocalServer, type Worker } from '../src/index.js';

/** `maybe_compact` runs the configured compactor inside a step; its entries reach the log like any other. */
const WINDOW = 2_000;
const PAGES = 14;
/** Reads the page after the last one it sees (compaction drops the early ones from what it sees). */
const reply = (request: { messages: Message[] }): ScriptedCall => {
  const last = request.messages.findLast((m) => m.role === 'toolResult');
  const text = last?.role === 'toolResult' && last.content[0]?.type === 'text' ? last.content[0].text : '';
  const page = last ? Number(/^page (\d+):/.exec(text)?.[1]) + 1 : 0;
  return page >= PAGES ? { text: 'read it all' } : { toolCalls: [{ id: `page-${page}`, name: 'read_page', args: { page } }] };
};
const model = scriptedModel(Array.from({ length: 100 }, () => reply), { contextWindow: WINDOW });
const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page of the document.',
  input: z.object({ page: z.number() }),
  execute: ({ page }) => `page ${page}: ${'lorem ipsum dolor sit amet '.repeat(30)}`,
});

let server: LocalServer;
let worker: Worker;
beforeAll(async () => {
  server = await startLocalServer();
  worker = await serve({
    name: 'CompactingSession',
    model,
    tools: [readPage],
    compactor: WindowManager({ strategy: 'keepTail', contextWindow: WINDOW, reserveTokens: 600, keepRecentTokens: 500 }),
    limits: { maxIterations: 20 },
  });
  await server.register(worker.url);
});
afterAll(async () => {
  await worker?.close();
  await server?.stop();
});

it('compacts inside a long tool loop, in a step, so every model call fits the window and the log keeps everything', async () => {
  const session = connect({ ingressUrl: server.ingressUrl, name: 'CompactingSession' }).session('long-read');
  expect(await session.prompt('read the whole document')).toMatchObject({ status: 'completed', iterations: PAGES });
  const entries = await session.entries();
  expect(entries.filter((e): e is CompactionEntry => e.kind === 'compaction').length).toBeGreaterThan(0);
  expect(entries.filter((e) => e.kind === 'message' && e.message.role === 'toolResult')).toHaveLength(PAGES);
  expect(model.requests).toHaveLength(PAGES + 1);
  for (const request of model.requests) expect(JSON.stringify(request.messages).length / 4).toBeLessThan(WINDOW);
});
