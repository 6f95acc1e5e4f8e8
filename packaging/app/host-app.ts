/**
 * A host app as a user writes it, against the installed packages only: a scripted model, a
 * session in a JSONL file, one tool, and a WindowManager that compacts inside the tool loop.
 * It prints one JSON line with what happened, for the consumer test to check.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTiktokenCounter, WindowManager } from '@tiller/compaction';
import type { TurnOutcome } from '@tiller/core';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { createAgent, defineTool, type AgentEvent } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { z } from 'zod';

const readFileTool = defineTool({
  name: 'read_file',
  description: 'Reads a file of the project.',
  input: z.object({ path: z.string() }),
  execute: ({ path }) => `// ${path}\n${'export const line = 1;\n'.repeat(400)}`,
});

const rounds = 6;
const model = scriptedModel(
  [
    ...Array.from({ length: rounds }, (_, i) => ({ text: `Reading part ${i}.`, toolCalls: [{ name: 'read_file', args: { path: `src/part-${i}.ts` } }] })),
    { text: 'I read every part.' },
  ],
  { id: 'scripted/consumer', contextWindow: 12_000 },
);

const dir = await mkdtemp(join(tmpdir(), 'tiller-consumer-app-'));
const sessionFile = join(dir, 'session.jsonl');
const session = createSessionLog(await JsonlStore.open(sessionFile, { create: true }));
const agent = createAgent({
  model,
  tools: [readFileTool],
  session,
  compactor: WindowManager({ strategy: 'keepTail', reserveTokens: 2_000, keepRecentTokens: 3_000 }),
});

const events: AgentEvent['type'][] = [];
let compactions = 0;
agent.subscribe((event) => {
  events.push(event.type);
  if (event.type === 'compaction.finished' && event.meta.compacted) compactions += 1;
});

const outcome: TurnOutcome = await agent.prompt('Read every part of the project.');
await agent.close();
await session.close();

// The file holds every entry, the compaction among them; reopening it gives the same context.
const lines = (await readFile(sessionFile, 'utf8')).trim().split('\n');
const reopened = createSessionLog(await JsonlStore.open(sessionFile, { readOnly: true }));
const kinds = reopened.entries().map((entry) => entry.kind);

// js-tiktoken is an optional peer this app does not install: asking for it says so.
const tiktoken = await loadTiktokenCounter().then(
  () => 'loaded',
  (error: unknown) => (error instanceof Error ? error.message : String(error)),
);

console.log(
  JSON.stringify({
    status: outcome.status,
    toolRuns: events.filter((type) => type === 'tool.finished').length,
    compactions,
    compactionEntries: kinds.filter((kind) => kind === 'compaction').length,
    fileLines: lines.length,
    contextMessages: reopened.context().length,
    tiktoken,
  }),
);
