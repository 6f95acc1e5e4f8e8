/**
 * A worker process whose host code adds an abort listener that throws to the signal it was lent:
 * its compactor, its model or its tool, as the prompt says (`hang in compaction`, `hang in the
 * model`, `hang in a tool`), then waits for the turn to be cancelled. Node reports such a throw
 * as an uncaught exception, which ends the process, so it runs in a process of its own for the
 * test to see whether it lives. Prints `listening <port>`, then `waiting in <what>` once the
 * listener is there.
 */
import type { Compactor } from '@tiller/compaction';
import type { Message, ModelStreamPart, TillerModel } from '@tiller/core';
import { defineTool } from '@tiller/shell';
import { scriptedModel, type ScriptedCall } from '@tiller/testing';
import { z } from 'zod';
import { serve } from '../../src/index.js';

const promptOf = (messages: readonly Message[]) => {
  const user = messages.findLast((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
};

/** Adds the listener that throws, says so, and waits for good: only the cancellation ends the wait. */
function waitWithThrowingListener(what: string, signal: AbortSignal): Promise<never> {
  signal.addEventListener('abort', () => {
    throw new Error(`${what} cleanup failed`);
  });
  process.stdout.write(`waiting in ${what}\n`);
  return new Promise<never>(() => {});
}

const reply = (request: { messages: Message[] }): ScriptedCall =>
  promptOf(request.messages) === 'hang in a tool' && !request.messages.some((m) => m.role === 'toolResult')
    ? { toolCalls: [{ id: 'hang-1', name: 'hang', args: {} }] }
    : { text: 'done' };
const scripted = scriptedModel(Array.from({ length: 100 }, () => reply));
const model: TillerModel = {
  id: 'test/listening',
  stream(request) {
    if (promptOf(request.messages) !== 'hang in the model') return scripted.stream(request);
    return (async function* (): AsyncIterable<ModelStreamPart> {
      await waitWithThrowingListener('the model', request.signal);
    })();
  },
};
const compactor: Compactor = {
  name: 'listening',
  maybeCompact: (acc, ctx) =>
    promptOf(acc.path.flatMap((e) => (e.kind === 'message' ? [e.message] : []))) === 'hang in compaction'
      ? waitWithThrowingListener('compaction', ctx.signal!)
      : Promise.resolve({ acc, meta: { compacted: false, appended: [] } }),
};
const hang = defineTool({
  name: 'hang',
  description: 'Waits until it is stopped.',
  input: z.object({}),
  execute: (_args, { signal }) => waitWithThrowingListener('a tool', signal),
});

const worker = await serve({ name: 'ListeningSession', model, tools: [hang], compactor, port: Number(process.env.PORT ?? 0), limits: { toolTimeoutMs: 60_000 } });
process.stdout.write(`listening ${worker.port}\n`);
