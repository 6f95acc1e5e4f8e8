import { defineTool } from '@tiller/shell';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentPaths } from '../agent-paths.js';
import { runPath } from './run-path.js';

const get = defineTool({ name: 'get', description: 'Reads a key.', input: z.object({ key: z.string() }), execute: async ({ key }) => key });
const paths = agentPaths({ tools: [get], crashes: false, hostActions: false });
const retried = paths.find((p) => p.name.includes('rate_limited+reply:tool_call(get)'))!;

describe('runPath, a path that retries more than the agent does', () => {
  it('is refused before it runs, saying why, instead of blaming the agent in follows-path', async () => {
    const error = await runPath(retried, (world) => ({ tools: world.tools([get]), limits: { maxRetries: 0 } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /^runPath: step 5 \(rate_limited\+reply:\w+(\(get\))?\) has the model fail 1 time before it replies, but the agent gives up after 0 retries \(limits\.maxRetries\); leave transient and rate_limited out of agentPaths\(\{ faults \}\), or give the agent more retries$/,
    );
  });

  it('runs where the agent retries enough, and a failure for good needs no retry', async () => {
    expect((await runPath(retried, (world) => ({ tools: world.tools([get]), limits: { maxRetries: 1 } }))).broken).toEqual([]);
    const failing = paths.find((p) => p.name.includes('fail:transient'))!;
    expect((await runPath(failing, (world) => ({ tools: world.tools([get]), limits: { maxRetries: 0 } }))).broken).toEqual([]);
  });
});
