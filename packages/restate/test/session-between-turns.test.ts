import type { Entry, Message } from '@tiller/core';
import { createAgent, defineTool } from '@tiller/shell';
import { scriptedModel, type RecordedRequest, type ScriptedCall } from '@tiller/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connect } from '../src/index.js';
import { waitFor } from './support/cluster.js';
import { type HostLogWorker, startHostLogWorker } from './support/host-log-worker.js';
import { invocationStatus } from './support/invocation-status.js';

/**
 * A durable session whose log the host keeps follows it between turns, as the shell's agent does:
 * each turn stands on the log's leaf as it is when the turn starts, and on that leaf still when it
 * replays after the host moved the leaf again.
 */
const said = (message: Message) =>
  `${message.role}:${typeof message.content === 'string' ? message.content : message.content.map((p) => (p.type === 'text' ? p.text : p.type)).join(' ')}`;
const saidAll = (messages: readonly Message[]) => messages.map(said);
const pathSaid = (path: readonly Entry[]) => path.map((e) => (e.kind === 'message' ? said(e.message) : `(${e.kind})`));

/** Answers the last message it is shown; a prompt of `deploy` asks for the tool that needs approval. */
const reply = (request: RecordedRequest): ScriptedCall => {
  const last = request.messages.at(-1)!;
  if (last.role === 'user' && last.content === 'deploy') return { toolCalls: [{ id: 'call-deploy', name: 'deploy', args: {} }] };
  return { text: `re ${said(last)}` };
};
const model = scriptedModel(Array.from({ length: 200 }, () => reply));
const deploy = defineTool({ name: 'deploy', description: 'Deploys, once approved.', input: z.object({}), execute: () => 'deployed' });

let host: HostLogWorker;
beforeAll(async () => {
  host = await startHostLogWorker({
    model,
    tools: [deploy],
    policy: (call) => (call.name === 'deploy' ? { decision: 'ask' } : { decision: 'allow' }),
    name: 'FollowingSession',
    // A turn waiting for an approval suspends after a second; the approval then replays it.
    inactivityTimeoutMs: 1_000,
  });
});
afterAll(() => host?.stop());

const sessionOf = (id: string) => connect({ ingressUrl: host.server.ingressUrl, name: 'FollowingSession' }).session(id);
/** The model's requests from here on. */
const requestsFrom = () => {
  const from = model.requests.length;
  return () => model.requests.slice(from).map((r) => saidAll(r.messages));
};

describe('a durable session on a log the host keeps follows it between turns', () => {
  it('continues from the leaf a host branched to: the model sees that branch, and the old one stays', async () => {
    const session = sessionOf('branched');
    await session.prompt('one');
    await session.prompt('two');
    const log = host.logOf('branched');
    const firstAnswer = log.path()[1]!;
    log.branch(firstAnswer.id);

    const requests = requestsFrom();
    expect(await session.prompt('three')).toMatchObject({ status: 'completed' });
    expect(requests()).toEqual([['user:one', 'assistant:re user:one', 'user:three']]);
    expect(pathSaid(log.path())).toEqual(['user:one', 'assistant:re user:one', 'user:three', 'assistant:re user:three']);
    expect(log.children(firstAnswer.id).map((e) => pathSaid([e])[0])).toEqual(['user:two', 'user:three']);
    expect(await session.entries()).toEqual(log.path());

    log.branch(null);
    const fresh = requestsFrom();
    await session.prompt('four');
    expect(fresh()).toEqual([['user:four']]);
    expect(log.roots()).toHaveLength(2);
  });

  it('continues after a label and a name the host set between turns, with no fork in the tree', async () => {
    const session = sessionOf('labelled');
    await session.prompt('one');
    const log = host.logOf('labelled');
    const answer = log.leafId!;
    const name = await log.setSessionName('Groceries');
    const label = await log.setLabel(answer, 'checkpoint');

    const requests = requestsFrom();
    await session.prompt('two');
    expect(requests()).toEqual([['user:one', 'assistant:re user:one', 'user:two']]);
    expect(pathSaid(log.path())).toEqual(['user:one', 'assistant:re user:one', '(custom)', '(custom)', 'user:two', 'assistant:re user:two']);
    expect(log.path().slice(2, 4).map((e) => e.id)).toEqual([name.id, label.id]);
    // One chain: every entry continues the one appended before it.
    for (const [i, entry] of log.entries().entries()) expect(entry.parentId).toBe(i === 0 ? null : log.entries()[i - 1]!.id);
    expect(log.labelOf(answer)).toBe('checkpoint');
  });

  it('continues after a turn another agent took on the same log in between', async () => {
    const session = sessionOf('shared');
    await session.prompt('to the durable agent');
    const log = host.logOf('shared');
    const localModel = scriptedModel([{ text: 'local answer' }, { text: 'local again' }]);
    const local = createAgent({ model: localModel, session: log });
    await local.prompt('to the local agent');

    const requests = requestsFrom();
    await session.prompt('durable again');
    const both = ['user:to the durable agent', 'assistant:re user:to the durable agent', 'user:to the local agent', 'assistant:local answer', 'user:durable again'];
    expect(requests()).toEqual([both]);
    // And the local agent follows the durable turn in its turn.
    await local.prompt('local again');
    expect(saidAll(localModel.requests[1]!.messages)).toEqual([...both, 'assistant:re user:durable again', 'user:local again']);
    await local.close();
    for (const [i, entry] of log.entries().entries()) expect(entry.parentId).toBe(i === 0 ? null : log.entries()[i - 1]!.id);
  });

  it('goes on from its own entries while it runs: a label set then sits on a side branch and still labels its entry', async () => {
    const session = sessionOf('labelled-while-waiting');
    const turn = await session.start('deploy');
    await waitFor('the turn to park its approval', async () => (await session.pendingApprovals()) ?? undefined);
    const log = host.logOf('labelled-while-waiting');
    const call = log.leafId!;
    const label = await log.setLabel(call, 'asked to deploy');

    await session.approve({ toolCallId: 'call-deploy', decision: 'allow' });
    expect(await turn.outcome()).toMatchObject({ status: 'completed' });
    expect(pathSaid(log.path())).toEqual(['user:deploy', 'assistant:toolCall', 'toolResult:deployed', 'assistant:re toolResult:deployed']);
    expect(log.children(call).map((e) => e.id)).toContain(label.id);
    expect(log.labelOf(call)).toBe('asked to deploy');
  });

  it('stands on the leaf it started on when it replays after the host moved the leaf while it waited', async () => {
    const session = sessionOf('moved-while-waiting');
    await session.prompt('one');
    await session.prompt('two');
    const log = host.logOf('moved-while-waiting');
    const [, firstAnswer, , secondAnswer] = log.path();
    log.branch(firstAnswer!.id);
    await session.prompt('three');
    // The turn starts on the branch [one, re one, three, re three] and waits for its approval.
    const turn = await session.start('deploy');
    await waitFor('the turn to park its approval', async () => (await session.pendingApprovals()) ?? undefined);
    await waitFor('the waiting turn to suspend', async () => ((await invocationStatus(host.server.adminUrl, turn.invocationId)) === 'suspended' ? true : undefined), 20_000);
    const openedBefore = host.opened('moved-while-waiting');
    // Meanwhile the host moves the leaf to the other branch, as long as the turn's own base.
    log.branch(secondAnswer!.id);
    expect(log.path()).toHaveLength(4);

    const requests = requestsFrom();
    await session.approve({ toolCallId: 'call-deploy', decision: 'allow' });
    expect(await turn.outcome()).toMatchObject({ status: 'completed' });
    // The approval replayed the turn (it opened the log again), on the branch it started on.
    expect(host.opened('moved-while-waiting')).toBeGreaterThan(openedBefore);
    const onItsBranch = ['user:one', 'assistant:re user:one', 'user:three', 'assistant:re user:three', 'user:deploy', 'assistant:toolCall', 'toolResult:deployed'];
    expect(requests()).toEqual([onItsBranch]);
    expect(pathSaid(log.path())).toEqual([...onItsBranch, 'assistant:re toolResult:deployed']);
  });
});
