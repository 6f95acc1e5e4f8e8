import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolResultMessage } from '@tiller/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, type LocalServer, serve, startLocalServer, type Worker } from '../src/index.js';
import { testAgent } from './support/test-agent.js';

/** The approval timeout is a durable timer on Restate: when it fires, what is undecided is denied. */
const ran: string[] = [];
let server: LocalServer;
let worker: Worker;
beforeAll(async () => {
  server = await startLocalServer();
  const agent = testAgent((line) => ran.push(line), sleep);
  worker = await serve({ ...agent, name: 'TimeoutSession', limits: { ...agent.limits, approvalTimeoutMs: 300 } });
  await server.register(worker.url);
});
afterAll(async () => {
  await worker?.close();
  await server?.stop();
});

it('denies a parked call when nobody decides before the approval timeout, and the turn goes on', async () => {
  const session = connect({ ingressUrl: server.ingressUrl, name: 'TimeoutSession' }).session('nobody-answers');
  const outcome = await session.prompt(JSON.stringify({ rounds: 2, approveRound: 1 }));
  expect(outcome).toMatchObject({ status: 'completed', iterations: 2 });
  expect(ran).not.toContain('start r1-deploy');
  const result = (await session.entries()).flatMap((e) => (e.kind === 'message' && e.message.role === 'toolResult' ? [e.message as ToolResultMessage] : [])).find((r) => r.toolCallId === 'r1-deploy');
  expect(result?.isError).toBe(true);
  expect(result?.content).toEqual([{ type: 'text', text: expect.stringContaining('no decision came before the approval timeout') }]);
  expect(await session.pendingApprovals()).toBeNull();
});
