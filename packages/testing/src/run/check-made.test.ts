import { defineTool } from '@tiller/shell';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentPaths } from '../agent-paths.js';
import { runPath, type MakeAgent } from './run-path.js';

const get = defineTool({ name: 'get', description: 'Reads a key.', input: z.object({ key: z.string() }), execute: async ({ key }) => key });
const path = agentPaths({ tools: [get], crashes: false, hostActions: false, faults: [] }).find((p) => p.name.includes('reply:tool_call(get)'))!;

describe('runPath, given an agent it cannot wrap', () => {
  it.each<[string, MakeAgent, RegExp]>([
    // Each of these was a bare TypeError from inside the kit, naming nothing of the user's.
    ['a makeAgent that is no function', 42 as never, /^runPath: makeAgent must be a function \(world\) => createAgent's options, got the number 42$/],
    ['world.tools of one tool, not a list', (world) => ({ tools: world.tools(get as never) }), /^runPath: world\.tools takes the list of your tools, got a tool; give it a list: world\.tools\(\[tool\]\)$/],
    ['world.tools of a list holding junk', (world) => ({ tools: world.tools([get, { name: 'set' }] as never) }), /^runPath: world\.tools got tools\[1\], which is not a tool made by defineTool: got an object$/],
    ['tools that hold junk', () => ({ tools: [get, null] as never }), /^runPath: makeAgent returned tools\[1\], which is not a tool made by defineTool: got null$/],
    ['tools that are no list', () => ({ tools: 'get' as never }), /^runPath: makeAgent returned tools that are not a list of tools made by defineTool: got the string "get"$/],
    ['a compactor that is a number', (world) => ({ tools: world.tools([get]), compactor: 42 as never }), /^runPath: makeAgent returned a compactor that is none \(an object with a name and maybeCompact\(acc, ctx, opts\)\): got the number 42$/],
    // This one ran, and every boundary broke no-shell-errors: "the compactor undefined threw: compactor.maybeCompact is not a function".
    ['a compactor without maybeCompact', (world) => ({ tools: world.tools([get]), compactor: {} as never }), /^runPath: makeAgent returned a compactor that is none \(an object with a name and maybeCompact\(acc, ctx, opts\)\): got an object$/],
    ['a compactor without a name', (world) => ({ tools: world.tools([get]), compactor: { maybeCompact: async () => undefined } as never }), /^runPath: makeAgent returned a compactor that is none \(an object with a name and maybeCompact\(acc, ctx, opts\)\): got an object$/],
    // This one was spread into the run's own limits and dropped without a word.
    ['limits that are a number', (world) => ({ tools: world.tools([get]), limits: 5 as never }), /^runPath: makeAgent returned limits that are not an object of limits \(maxRetries, …\): got the number 5$/],
  ])('refuses %s, saying what is wrong', async (_, make, said) => {
    const error = await runPath(path, make).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(said);
  });

  it('still runs an agent whose options are right, tools given with or without world.tools', async () => {
    expect((await runPath(path, (world) => ({ tools: world.tools([get]), limits: { maxRetries: 1 } }))).broken).toEqual([]);
    expect((await runPath(path, () => ({ tools: [get] }))).broken).toEqual([]);
  });
});
