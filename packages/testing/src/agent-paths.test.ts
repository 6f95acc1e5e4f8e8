import { defineTool } from '@tiller/shell';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentPaths } from './agent-paths.js';

const read = defineTool({ name: 'read_note', description: 'reads a note', input: z.object({ title: z.string().min(1).max(8) }), idempotent: true, execute: async ({ title }) => `note ${title}` });
const few = { tools: [read], crashes: false, hostActions: false, faults: [] } as const;

describe('agentPaths names the tool it does not know', () => {
  it('refuses a policy for a tool that is not among the tools', () => {
    expect(() => agentPaths({ ...few, policy: { read_nte: 'ask' } })).toThrow('agentPaths: policy names tool "read_nte", which is not among the tools (read_note)');
  });

  it('refuses an arbitrary for a tool that is not among the tools, instead of drawing from the schema as if it were not there', () => {
    expect(() => agentPaths({ ...few, arbitraries: { read_nte: fc.constant({ title: 'zz' }) } })).toThrow(
      'agentPaths: arbitraries names tool "read_nte", which is not among the tools (read_note)',
    );
  });

  it('draws the calls of a tool from its arbitrary', () => {
    const paths = agentPaths({ ...few, arbitraries: { read_note: fc.constant({ title: 'zz' }) } });
    const calls = paths.flatMap((p) => p.steps.flatMap(({ step }) => (step.do === 'reply' ? step.calls : [])));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.tool === 'read_note' && c.args.title === 'zz')).toBe(true);
  });
});

describe('agentPaths refuses a maxLength that leaves no whole story', () => {
  it('refuses 0, a negative or a fractional length, naming maxLength', () => {
    for (const maxLength of [0, -1, 2.5]) {
      expect(() => agentPaths({ ...few, maxLength })).toThrow(TypeError);
      expect(() => agentPaths({ ...few, maxLength })).toThrow(/^agentPaths: invalid options:[\s\S]*→ at maxLength/);
    }
  });

  it('refuses a length shorter than the shortest story, saying which story that is', () => {
    // The shortest story a turn can tell: the prompt, the boundary check, a reply without tools.
    for (const maxLength of [1, 2]) {
      expect(() => agentPaths({ ...few, maxLength })).toThrow(
        `agentPaths: maxLength ${maxLength} is shorter than the shortest story (3 steps: prompt > boundary > reply:text): no story would be generated whole; give at least 3`,
      );
    }
  });

  it('takes the shortest story as the least length: every path fits, and that story is among them', () => {
    const paths = agentPaths({ ...few, maxLength: 3 });
    expect(paths.map((p) => p.name)).toContain('prompt > boundary > reply:text');
    expect(paths.every((p) => p.steps.length <= 3)).toBe(true);
  });
});
