import { defineTool } from '@tiller/shell';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentPaths } from '../agent-paths.js';
import { runPath } from './run-path.js';

const slow = defineTool({
  name: 'slow',
  description: 'Takes its time.',
  input: z.object({}),
  execute: async (_, { signal }) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    signal.throwIfAborted();
    return 'done';
  },
});
const path = agentPaths({ tools: [slow], crashes: false, hostActions: false, faults: [] }).find((p) => p.name.includes('reply:tool_call(slow) > tools:ok'))!;

describe('runPath options', () => {
  it('refuses an invariant of yours named as one of Tiller\'s, or two of one name (toHold could not tell them apart)', async () => {
    const check = () => undefined;
    await expect(runPath(path, () => ({ tools: [slow] }), { invariants: [{ name: 'valid-transcript', check }] })).rejects.toThrow(
      /^runPath: invalid options:\n✖ the invariant "valid-transcript" is one of Tiller's; give yours a name of its own\n  → at invariants\[0\]\.name$/,
    );
    await expect(runPath(path, () => ({ tools: [slow] }), { invariants: [{ name: 'mine', check }, { name: 'mine', check }] })).rejects.toThrow(
      /^runPath: invalid options:\n✖ two invariants are named "mine"\n  → at invariants\[1\]\.name$/,
    );
  });

  it('names stepTimeoutMs when a step waits longer than it (a tool slower than the limit)', async () => {
    const run = await runPath(path, () => ({ tools: [slow] }), { stepTimeoutMs: 50 });
    expect(run.broken.map((b) => b.message)).toContainEqual(expect.stringMatching(/waited 50 ms \(runPath's stepTimeoutMs\) for .*; the turn is in/));
  });
});
