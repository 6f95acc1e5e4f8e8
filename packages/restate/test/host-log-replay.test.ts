import { setTimeout as sleep } from 'node:timers/promises';
import * as restate from '@restatedev/restate-sdk';
import { createSessionLog, MemoryStore, type SessionLog } from '@tiller/session';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, DurableClientError, type LocalServer, serve, startLocalServer, type Worker } from '../src/index.js';
import { waitFor } from './support/cluster.js';
import { invocationStatus } from './support/invocation-status.js';
import { testAgent } from './support/test-agent.js';

/**
 * A turn that waits for an approval suspends; the decision replays it from the start, and the
 * replay asks the host's `sessionLog` again. Here that second call fails for good (the tenant was
 * deleted meanwhile, or the host's code now returns junk). A replay cannot go on without the log
 * it began on, and Restate cannot end an invocation partway through its journal, so the turn is
 * retried until its invocation is killed (by an operator, or by the server once the retries run
 * out). What a host reads of the session must then say the turn is over, not show a turn that
 * runs and an approval that waits, until a next turn happens to clear them.
 */
let server: LocalServer;
let worker: Worker;
/** Sessions whose log fails from now on, and how. */
const failing = new Map<string, () => SessionLog>();
const logs = new Map<string, SessionLog>();
beforeAll(async () => {
  server = await startLocalServer();
  worker = await serve({
    ...testAgent(() => {}, sleep),
    name: 'ReplayedLogSession',
    // A turn waiting for an approval suspends after a second; the approval then replays it.
    inactivityTimeoutMs: 1_000,
    sessionLog: (id) => {
      const fail = failing.get(id);
      if (fail) return fail();
      if (!logs.has(id)) logs.set(id, createSessionLog(new MemoryStore()));
      return logs.get(id)!;
    },
  });
  await server.register(worker.url);
});
afterAll(async () => {
  await worker?.close();
  await server?.stop();
});

const within = <T>(ms: number, what: string, promise: Promise<T>) =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} did not end within ${ms} ms`)))]);

const failures: Array<[string, () => SessionLog, RegExp]> = [
  [
    'throws a TerminalError',
    () => {
      throw new restate.TerminalError('the tenant was deleted');
    },
    /the tenant was deleted/,
  ],
  ['returns junk', () => ({ path: 42 }) as never, /returned an object that is not a SessionLog/],
];

/** Kills an invocation through the admin API, as an operator does, or the server when its retries run out. */
async function kill(invocationId: string): Promise<void> {
  const response = await fetch(`${server.adminUrl}/invocations/${invocationId}/kill`, { method: 'PATCH' });
  if (!response.ok) throw new Error(`the kill answered ${response.status}: ${await response.text()}`);
}

describe('a sessionLog that fails for good on the replay after a suspended turn', () => {
  for (const [how, fail, what] of failures) {
    it(`${how}: once the retried turn is killed, neither a running turn nor a parked approval is left, and the last outcome says it failed`, async () => {
      const id = `replay-${how.replace(/\W+/g, '-')}`;
      const session = connect({ ingressUrl: server.ingressUrl, name: 'ReplayedLogSession' }).session(id);
      const turn = await session.start(JSON.stringify({ rounds: 1, approveRound: 0 }));
      await waitFor('the turn to park its approval', async () => (await session.pendingApprovals()) ?? undefined);
      await waitFor('the waiting turn to suspend', async () => ((await invocationStatus(server.adminUrl, turn.invocationId)) === 'suspended' ? true : undefined), 20_000);

      failing.set(id, fail);
      await session.approve({ toolCallId: 'r0-deploy', decision: 'allow' });
      // The replay fails at the log, so Restate retries it: the turn still runs.
      await waitFor('the replay to be retried', async () => ((await invocationStatus(server.adminUrl, turn.invocationId)) === 'backing-off' ? true : undefined), 20_000);
      expect(await session.running()).toEqual({ turnId: turn.turnId, invocationId: turn.invocationId });
      // Restate records why: the host's words, and that the replay is retried (not a journal mismatch).
      const why = String(await invocationFailure(turn.invocationId));
      expect(why).toMatch(what);
      expect(why).toMatch(/on the replay of a turn that had begun: it cannot go on without its log, so Restate retries it/);

      await kill(turn.invocationId);
      await expect(within(10_000, 'the killed turn', turn.outcome())).rejects.toThrow(DurableClientError);
      expect(await session.running()).toBeNull();
      expect(await session.pendingApprovals()).toBeNull();
      expect(await session.lastOutcome()).toEqual({
        status: 'failed',
        turnId: turn.turnId,
        iterations: 0,
        reason: `the turn's invocation ${turn.invocationId} ended before the turn finished: 409 killed`,
      });

      // With its log back, the next turn runs, and shows no approval of the killed one while it runs.
      failing.delete(id);
      const next = await session.start(JSON.stringify({ rounds: 1, slowModelRound: 0, slowMs: 2_000 }));
      await waitFor('the next turn to run', async () => ((await session.running())?.turnId === next.turnId ? true : undefined));
      expect(await session.pendingApprovals()).toBeNull();
      expect(await within(20_000, 'the next turn', next.outcome())).toMatchObject({ status: 'completed' });
      expect(await session.lastOutcome()).toMatchObject({ status: 'completed', turnId: next.turnId });
    });
  }
});

/** The last failure Restate recorded for an invocation (its SQL introspection on the admin port). */
async function invocationFailure(invocationId: string): Promise<string | undefined> {
  const response = await fetch(`${server.adminUrl}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: `SELECT last_failure FROM sys_invocation WHERE id = '${invocationId}'` }),
  });
  const { rows } = (await response.json()) as { rows: Array<{ last_failure: string | null }> };
  return rows[0]?.last_failure ?? undefined;
}
