/**
 * Run by load.test.ts as `node --expose-gc --import tsx load-child.ts <dir> <agents> <rounds>`: a
 * process of its own, so that the test sees it exit by itself (nothing left open) and can read
 * its heap after a full collection. Prints one JSON line with what it found.
 *
 * Each round opens `agents` agents, each over its own JSONL session and journal with its own
 * scripted answers, runs three turns of all of them at once (each turn a tool call, then a reply),
 * checks that each session holds only its own agent's words, and closes everything.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { scriptedModel, type ScriptStep } from '@tiller/testing';
import { createAgent, fileJournal, journalPathFor } from '../../src/index.js';
import { recordingTools } from '../helpers.js';

const [dir, agentsText, roundsText] = process.argv.slice(2) as [string, string, string];
const AGENTS = Number(agentsText);
const ROUNDS = Number(roundsText);
const TURNS = 3;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** Every agent tag (`agent-17`) a text holds. */
const tags = (text: string) => new Set(text.match(/agent-\d+\b/g) ?? []);

async function round(r: number): Promise<string[]> {
  const roundDir = join(dir, `round-${r}`);
  await mkdir(roundDir, { recursive: true });
  const agents = await Promise.all(
    Array.from({ length: AGENTS }, async (_, i) => {
      const tag = `agent-${i}`;
      const file = join(roundDir, `${tag}.jsonl`);
      const store = await JsonlStore.open(file, { create: true, fsync: 'never' });
      const script: ScriptStep[] = Array.from({ length: TURNS }, (_, t) => [
        { toolCalls: [{ id: `${tag}-call-${t}`, name: 'echo', args: { text: `${tag} echoes ${t}` } }] },
        { text: `${tag} answers turn ${t}`, partDelayMs: (i + t) % 3 },
      ]).flat();
      const model = scriptedModel(script);
      const agent = createAgent({ model, tools: [recordingTools().echo], session: createSessionLog(store), journal: fileJournal(journalPathFor(file), { durability: 'never' }) });
      return { tag, agent, model, store };
    }),
  );
  for (let t = 0; t < TURNS; t++) {
    // All agents at once: their model streams, tools and writes interleave.
    const outcomes = await Promise.all(agents.map(({ tag, agent }) => agent.prompt(`${tag} asks turn ${t}`)));
    const failed = outcomes.filter((o) => o.status !== 'completed');
    if (failed.length > 0) throw new Error(`round ${r} turn ${t}: ${failed.length} turns did not complete: ${JSON.stringify(failed[0])}`);
  }
  const problems: string[] = [];
  for (const { tag, agent, model } of agents) {
    const text = JSON.stringify(agent.session.entries());
    const seen = tags(text);
    if (seen.size !== 1 || !seen.has(tag)) problems.push(`${tag}'s session holds ${[...seen].join(', ')}`);
    if (agent.session.path().length !== TURNS * 4) problems.push(`${tag}'s session has ${agent.session.path().length} entries, expected ${TURNS * 4}`);
    const sent = tags(JSON.stringify(model.requests.map((q) => q.messages)));
    if (sent.size !== 1 || !sent.has(tag)) problems.push(`${tag}'s model was sent ${[...sent].join(', ')}`);
  }
  for (const { agent, store } of agents) {
    await agent.close();
    await store.close();
  }
  await rm(roundDir, { recursive: true, force: true });
  return problems;
}

/** Heap held by one scripted model (and its agent's session) after `turns` turns with a 20 KB prompt each. */
async function scriptedModelHeap(turns: number): Promise<number> {
  const before = heap();
  const model = scriptedModel(Array.from({ length: turns }, (_, t) => ({ text: `answer ${t}` })));
  const agent = createAgent({ model });
  for (let t = 0; t < turns; t++) await agent.prompt(`${t} ${'x'.repeat(20_000)}`);
  const after = heap();
  // Keep both alive until measured.
  if (model.requests.length !== turns || agent.session.size !== 2 * turns) throw new Error('unreachable');
  await agent.close();
  return after - before;
}

const heaps: number[] = [];
const crossTalk: string[] = [];
for (let r = 0; r < ROUNDS; r++) {
  crossTalk.push(...(await round(r)));
  heaps.push(heap());
}
const model = { short: await scriptedModelHeap(40), long: await scriptedModelHeap(160) };
// Requests already finishing (a file handle's close, the loader's cache) settle first; what is
// still open after that is held by something.
await new Promise((resolve) => setTimeout(resolve, 200));
process.stdout.write(`${JSON.stringify({ heaps, crossTalk, model, active: process.getActiveResourcesInfo() })}\n`);
