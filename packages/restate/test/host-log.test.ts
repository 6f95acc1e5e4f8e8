import { setTimeout as sleep } from 'node:timers/promises';
import type { AssistantMessage } from '@tiller/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../src/index.js';
import { type HostLogWorker, startHostLogWorker } from './support/host-log-worker.js';
import { testAgent } from './support/test-agent.js';

/** A durable agent whose session log is a store the host keeps, not Restate's state. */
let host: HostLogWorker;
beforeAll(async () => {
  host = await startHostLogWorker({ ...testAgent(() => {}, sleep), name: 'HostLogSession' });
});
afterAll(() => host?.stop());

it('persists every entry to the host\'s session log, once, and the next turn builds on it', async () => {
  const session = connect({ ingressUrl: host.server.ingressUrl, name: 'HostLogSession' }).session('kept-by-the-host');
  expect(await session.prompt(JSON.stringify({ rounds: 1 }))).toMatchObject({ status: 'completed', iterations: 1 });
  const log = host.logOf('kept-by-the-host');
  const first = log.path();
  expect(first.map((e) => (e.kind === 'message' ? e.message.role : e.kind))).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'assistant']);
  expect(await session.entries()).toEqual(first);

  // The model counts the assistant messages it is shown: two from the first turn, so it answers at once
  // (and counts every user message after the first, here the second prompt, as a steer).
  expect(await session.prompt(JSON.stringify({ rounds: 1 }))).toMatchObject({ status: 'completed', iterations: 0 });
  const path = log.path();
  expect(path.slice(0, first.length)).toEqual(first);
  expect(new Set(path.map((e) => e.id)).size).toBe(path.length);
  expect((path.at(-1) as { message: AssistantMessage }).message.content).toEqual([{ type: 'text', text: 'done after 2 rounds, 1 steers' }]);
});

it('starts one turn for a turn id sent twice (a host that retries its prompt)', async () => {
  const session = connect({ ingressUrl: host.server.ingressUrl, name: 'HostLogSession' }).session('sent-twice');
  const first = await session.start(JSON.stringify({ rounds: 1 }), { turnId: 'the-one-turn' });
  const again = await session.start(JSON.stringify({ rounds: 1 }), { turnId: 'the-one-turn' });
  expect(again.invocationId).toBe(first.invocationId);
  expect(await again.outcome()).toEqual(await first.outcome());
  const prompts = host.logOf('sent-twice').path().filter((e) => e.kind === 'message' && e.message.role === 'user');
  expect(prompts).toHaveLength(1);
});
