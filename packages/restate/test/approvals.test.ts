import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolResultMessage } from '@tiller/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type LocalServer, serve, startLocalServer, type Worker } from '../src/index.js';
import { waitFor } from './support/cluster.js';
import { testAgent } from './support/test-agent.js';

/** Approvals of a durable turn, on one Restate server: one agent whose approvals time out fast, one whose approvals wait. */
const ran: string[] = [];
let server: LocalServer;
const workers: Worker[] = [];
beforeAll(async () => {
  server = await startLocalServer();
  const agent = testAgent((line) => ran.push(line), sleep);
  workers.push(await serve({ ...agent, name: 'TimeoutSession', limits: { ...agent.limits, approvalTimeoutMs: 300 } }));
  workers.push(await serve({ ...agent, name: 'WaitingSession' }));
  for (const worker of workers) await server.register(worker.url);
});
afterAll(async () => {
  for (const worker of workers) await worker.close();
  await server?.stop();
});

const toolResults = (entries: Awaited<ReturnType<ReturnType<ReturnType<typeof connect>['session']>['entries']>>) =>
  entries.flatMap((e) => (e.kind === 'message' && e.message.role === 'toolResult' ? [e.message as ToolResultMessage] : []));

describe('the approval timeout is a durable timer on Restate', () => {
  it('denies a parked call when nobody decides before the approval timeout, and the turn goes on', async () => {
    const session = connect({ ingressUrl: server.ingressUrl, name: 'TimeoutSession' }).session('nobody-answers');
    const outcome = await session.prompt(JSON.stringify({ rounds: 2, approveRound: 1 }));
    expect(outcome).toMatchObject({ status: 'completed', iterations: 2 });
    expect(ran).not.toContain('start r1-deploy');
    const result = toolResults(await session.entries()).find((r) => r.toolCallId === 'r1-deploy');
    expect(result?.isError).toBe(true);
    expect(result?.content).toEqual([{ type: 'text', text: expect.stringContaining('no decision came before the approval timeout') }]);
    expect(await session.pendingApprovals()).toBeNull();
  });
});

describe('a malformed approval that reaches the worker (a client of another version, a raw call to the inbox)', () => {
  /** Posts to the session's inbox as any HTTP client could, unchecked. */
  const postRaw = async (sessionId: string, message: unknown) => {
    const response = await fetch(`${server.ingressUrl}/WaitingSessionInbox/${sessionId}/post`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
    });
    expect(response.status).toBe(200);
    return response.json();
  };

  it('is dropped with a note saying what is wrong; the turn waits on, a good decision runs the call, the next prompt runs', async () => {
    const session = connect({ ingressUrl: server.ingressUrl, name: 'WaitingSession' }).session('malformed-approvals');
    const turn = await session.start(JSON.stringify({ rounds: 1, approveRound: 0 }));
    await waitFor('the turn to park its approval', async () => (await session.pendingApprovals()) ?? undefined);
    const at = new Date().toISOString();
    for (const decisions of [[null], 'yes', [{ toolCallId: 'r0-deploy', decision: 'maybe' }]]) {
      expect(await postRaw('malformed-approvals', { kind: 'approval', decisions, at })).toEqual({
        delivered: 'dropped',
        note: { eventType: 'approval', reason: expect.stringMatching(/^the message is not a valid turn message:[\s\S]*at decisions/), at },
      });
    }
    expect(await postRaw('malformed-approvals', { kind: 'shout', at })).toMatchObject({ delivered: 'dropped', note: { reason: expect.stringContaining('kind') } });
    expect(await session.pendingApprovals()).toMatchObject({ calls: [{ id: 'r0-deploy' }] });

    expect(await session.approve({ toolCallId: 'r0-deploy', decision: 'allow' })).toEqual({ delivered: 'turn' });
    expect(await turn.outcome()).toMatchObject({ status: 'completed', iterations: 1 });
    expect(toolResults(await session.entries()).find((r) => r.toolCallId === 'r0-deploy')).toMatchObject({ isError: false });
    expect(await session.prompt(JSON.stringify({ rounds: 1 }))).toMatchObject({ status: 'completed' });
  });
});
