import { setTimeout as sleep } from 'node:timers/promises';
import type { AssistantMessage } from '@tiller/core';
import * as restate from '@restatedev/restate-sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, DurableClientError, serve, type Worker } from '../src/index.js';
import { type HostLogWorker, startHostLogWorker } from './support/host-log-worker.js';
import { testAgent } from './support/test-agent.js';

/**
 * A durable agent whose session log is a store the host keeps, not Restate's state; and, on the
 * same Restate server, one whose host code fails: its subscriber, or its session log.
 */
let host: HostLogWorker;
let faulty: Worker;
let storeOutages = 0;
beforeAll(async () => {
  host = await startHostLogWorker({ ...testAgent(() => {}, sleep), name: 'HostLogSession' });
  faulty = await serve({
    ...testAgent(() => {}, sleep),
    name: 'FaultyHostCode',
    // Each session id names how the subscriber fails.
    onEvent: ({ sessionId }) => {
      if (sessionId === 'subscriber-throws') throw new Error('the subscriber blew up');
      if (sessionId === 'subscriber-rejects') return Promise.reject(new Error('the webhook is down'));
    },
    // And how the session log fails; other sessions keep theirs in memory.
    sessionLog: (id) => {
      // Down for its first two calls, then back: an outage a retry outlives.
      if (id === 'log-down-for-a-moment' && storeOutages++ < 2) throw new Error('the store is down');
      if (id === 'log-terminal') throw new restate.TerminalError('no such tenant');
      if (id === 'log-junk') return { path: 'not a function' } as never;
      return host.logOf(`faulty/${id}`);
    },
  });
  await host.server.register(faulty.url);
});
afterAll(async () => {
  await faulty?.close();
  await host?.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Fails after `ms` saying what did not end, instead of waiting for the test's timeout. */
const within = <T>(ms: number, what: string, promise: Promise<T>) =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} did not end within ${ms} ms`)))]);

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

describe('host code that fails does not stop a durable turn', () => {
  const faultySession = (id: string) => connect({ ingressUrl: host.server.ingressUrl, name: 'FaultyHostCode' }).session(id);

  for (const [id, how] of [['subscriber-throws', 'the subscriber blew up'], ['subscriber-rejects', 'the webhook is down']] as const) {
    it(`runs the turn to its end when onEvent ${id === 'subscriber-throws' ? 'throws' : 'returns a promise that rejects'}, and logs each failure as a warning`, async () => {
      const warn = vi.spyOn(console, 'warn');
      const outcome = await within(15_000, 'the turn', faultySession(id).prompt(JSON.stringify({ rounds: 1 })));
      expect(outcome).toMatchObject({ status: 'completed', iterations: 1 });
      const reports = () => warn.mock.calls.map((args) => args.join(' ')).filter((line) => line.includes('onEvent failed'));
      await vi.waitFor(() => expect(reports().some((line) => line.includes('turn.ended'))).toBe(true));
      expect(reports().every((line) => line.includes(how))).toBe(true);
      // Once per event: turn.started, the messages, the tools, turn.ended; not once per retry.
      expect(new Set(reports()).size).toBe(reports().length);
    });
  }

  it('retries a turn whose sessionLog throws, as for any failed step: once the store is back, the turn completes', async () => {
    const session = faultySession('log-down-for-a-moment');
    expect(await within(15_000, 'the turn', session.prompt(JSON.stringify({ rounds: 1 })))).toMatchObject({ status: 'completed', iterations: 1 });
    expect(storeOutages).toBeGreaterThan(2);
  });

  for (const [id, what] of [['log-terminal', /no such tenant/], ['log-junk', /sessionLog\("log-junk"\) returned an object that is not a SessionLog/]] as const) {
    it(`fails the turn at once, naming sessionLog, when it ${id === 'log-terminal' ? 'throws a TerminalError' : 'returns junk'}; entries() says the same`, async () => {
      const session = faultySession(id);
      const failed = within(15_000, 'the turn', session.prompt('hello'));
      await expect(failed).rejects.toThrow(DurableClientError);
      await expect(failed).rejects.toThrow(what);
      await expect(within(5_000, 'entries()', session.entries())).rejects.toThrow(what);
      // Nothing is left behind: no turn runs, and the next prompt fails the same way rather than waiting.
      expect(await session.running()).toBeNull();
      await expect(within(15_000, 'the next turn', session.prompt('again'))).rejects.toThrow(what);
    });
  }
});
