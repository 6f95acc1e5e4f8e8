import type { Entry, ToolResultMessage } from '@tiller/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster, waitFor } from './support/cluster.js';
import { ROUNDS } from './support/test-agent.js';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(2);
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
}, 30_000);

const prompt = (plan: Record<string, number>) => JSON.stringify({ rounds: ROUNDS, ...plan });
const results = (entries: Entry[]) =>
  entries.flatMap((e) => (e.kind === 'message' && e.message.role === 'toolResult' ? [e.message as ToolResultMessage] : []));

describe('a durable turn on Restate', () => {
  it('runs a dozen tool rounds and logs every entry', async () => {
    const session = cluster.client.session('smoke');
    const outcome = await session.prompt(prompt({}));
    expect(outcome).toMatchObject({ status: 'completed', iterations: ROUNDS });
    const entries = await session.entries();
    expect(results(entries)).toHaveLength(2 * ROUNDS);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.parentId).toBe(entries[i - 1]!.id);
  }, 60_000);
});
