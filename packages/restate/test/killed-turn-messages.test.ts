import { setTimeout as sleep } from 'node:timers/promises';
import { defineTool } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { connect, DurableClientError, type LocalServer, serve, startLocalServer, type Worker } from '../src/index.js';
import { waitFor } from './support/cluster.js';

/**
 * A turn whose invocation ends before the turn does (an operator kills it, the server's retry
 * policy gives up, a step fails for good) leaves its inbox pointing at that invocation. Messages
 * and aborts sent after it must read as what they are: sent while no turn runs.
 */
let server: LocalServer;
let worker: Worker;
let started = 0;
const hang = defineTool({
  name: 'hang',
  description: 'Waits until the turn is cancelled.',
  input: z.object({}),
  execute: async (_args, { signal }) => {
    started++;
    await sleep(60_000, undefined, { signal });
    return 'woke';
  },
});

beforeAll(async () => {
  server = await startLocalServer();
  worker = await serve({
    name: 'KilledSession',
    model: scriptedModel([{ toolCalls: [{ id: 'h1', name: 'hang', args: {} }] }, { text: 'answered' }, { text: 'answered again' }]),
    tools: [hang],
  });
  await server.register(worker.url);
});
afterAll(async () => {
  await worker?.close();
  await server?.stop();
});

it('drops a steer, a follow-up and an approval sent after the turn was killed, with the note to send them again, and abort() says no turn runs', async () => {
  const session = connect({ ingressUrl: server.ingressUrl, name: 'KilledSession' }).session('killed');
  const turn = await session.start('wait for it');
  await waitFor('the tool to start', () => (started > 0 ? true : undefined));
  const killed = await fetch(`${server.adminUrl}/invocations/${turn.invocationId}/kill`, { method: 'PATCH' });
  expect(killed.ok).toBe(true);
  await expect(turn.outcome()).rejects.toThrow(DurableClientError);
  expect(await session.running()).toBeNull();

  // Before: each answered { delivered: 'turn' }, the message lost, and abort() answered true.
  const steered = await session.steer('are you there?');
  expect(steered).toEqual({ delivered: 'dropped', note: expect.objectContaining({ eventType: 'steer', reason: 'no turn is running', message: { role: 'user', content: 'are you there?' } }) });
  expect(await session.followUp('and then?')).toMatchObject({ delivered: 'dropped', note: { eventType: 'follow_up', reason: 'no turn is running' } });
  expect(await session.approve({ toolCallId: 'h1', decision: 'allow' })).toMatchObject({ delivered: 'dropped', note: { reason: 'no turn is running' } });
  expect(await session.abort('too late')).toBe(false);

  // The next turn runs as usual; a steer after it is dropped as ever.
  const next = await session.start('hello again');
  expect(await next.outcome()).toMatchObject({ status: 'completed' });
  expect(await session.steer('after it')).toMatchObject({ delivered: 'dropped' });
});
