import { agentPaths, assertFullCoverage, runPath, type PathRun } from '@tiller/testing';
import '@tiller/testing/vitest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type PolicyDecision } from '../src/index.js';

/**
 * The shell along every path the world can take it (replies, faults, tool outcomes, approvals,
 * host actions, crashes with resume), with a probe agent whose tools cover every policy class.
 */
const probeTools = () => [
  defineTool({ name: 'probe', description: 'probes', input: z.object({ depth: z.number().int().min(0).max(3) }), idempotent: true, execute: ({ depth }) => `depth ${depth}` }),
  defineTool({ name: 'change', description: 'changes something', input: z.object({ what: z.string().max(10) }), execute: ({ what }) => `changed ${what}` }),
  defineTool({ name: 'forbidden', description: 'never allowed', input: z.object({}), execute: () => 'ran' }),
];
const policy = (call: { name: string }): PolicyDecision =>
  call.name === 'change' ? { decision: 'ask' } : call.name === 'forbidden' ? { decision: 'deny', rationale: 'not here' } : { decision: 'allow' };

const paths = agentPaths({ tools: probeTools(), policy: { change: 'ask', forbidden: 'deny' }, seed: 7 });
const runs: PathRun[] = [];

describe('the shell, along the paths of @tiller/testing', () => {
  it.each(paths.named())('%s', async (_name, path) => {
    const run = await runPath(path, (world) => ({ tools: world.tools(probeTools()), policy }));
    runs.push(run);
    expect(run).toHoldEveryInvariant();
  });

  it('covers every state and every transition a shell can take', () => {
    expect(runs).toHaveLength(paths.length);
    expect(assertFullCoverage(runs).ratio).toBe(1);
  });
});
