/**
 * A durable turn from start to end: a Restate server from npm, a worker in this process, a
 * session that asks for an approval, and the outcome. Run it with
 * `node --conditions=@tiller/source --import tsx packages/restate/examples/durable-host.ts`.
 * Swap `scriptedModel` for `fromLanguageModel(...)` (from @tiller/shell) to use a real model.
 */
import { defineTool } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { z } from 'zod';
import { connect, serve, startLocalServer } from '../src/index.js';

const notes: string[] = [];
const addNote = defineTool({
  name: 'add_note',
  description: 'Adds a line to the notebook.',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => {
    notes.push(text);
    return `noted: ${text}`;
  },
});

const model = scriptedModel([
  { toolCalls: [{ id: 'note-1', name: 'add_note', args: { text: 'buy bread' } }] },
  { text: 'Added "buy bread" to your notebook.' },
]);

const server = await startLocalServer();
const worker = await serve({
  model,
  tools: [addNote],
  // Writing to the notebook waits for a person; the wait is a durable timer, so it may be long.
  policy: (call) => (call.name === 'add_note' ? { decision: 'ask' } : { decision: 'allow' }),
  limits: { approvalTimeoutMs: 60 * 60_000 },
  onEvent: ({ seq, event }) => console.log(`event ${seq}: ${event.type}`),
});
try {
  await server.register(worker.url);
  const session = connect({ ingressUrl: server.ingressUrl }).session('notebook');
  const turn = await session.start('Add bread to my groceries.');
  // A host would show the parked calls to someone; here they are allowed as soon as they appear.
  let parked = await session.pendingApprovals();
  while (!parked) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    parked = await session.pendingApprovals();
  }
  await session.approve(parked.calls.map((call) => ({ toolCallId: call.id, decision: 'allow' as const })));
  const outcome = await turn.outcome();
  console.log(`outcome: ${outcome.status} after ${outcome.iterations} tool round(s); notebook: ${JSON.stringify(notes)}`);
  console.log(`entries in the log: ${(await session.entries()).length}`);
} finally {
  await worker.close();
  await server.stop();
}
