import { z } from 'zod';
import { defineTool, type Tool } from '../../src/index.js';

/** The calls of the crashed batch: two writes (not safe to repeat), an idempotent lookup, a quick greeting. */
export const CRASH_CALLS = [
  { id: 'write-a', name: 'write_file', args: { path: 'a.txt' } },
  { id: 'write-b', name: 'write_file', args: { path: 'b.txt' } },
  { id: 'look-up', name: 'look_up', args: { word: 'tiller' } },
  { id: 'say-hi', name: 'say_hi', args: {} },
] as const;

export const IDEMPOTENT = new Set(['look_up']);

/**
 * The tools the crashed agent and its resumed successor share. `record(id)` is the side effect:
 * it is called with `<callId> begin` before the tool's work and `<callId> end` after it (the crash
 * test counts runs from those lines); `work(id)` is the time the tool takes.
 */
export function crashTools(record: (line: string) => void, work: (id: string) => Promise<void>): Tool[] {
  const run = async (toolCallId: string, result: string) => {
    record(`${toolCallId} begin`);
    await work(toolCallId);
    record(`${toolCallId} end`);
    return result;
  };
  return [
    defineTool({
      name: 'write_file',
      description: 'Writes a file.',
      input: z.object({ path: z.string() }),
      execute: ({ path }, { toolCallId }) => run(toolCallId, `wrote ${path}`),
    }),
    defineTool({
      name: 'look_up',
      description: 'Looks a word up (safe to repeat).',
      input: z.object({ word: z.string() }),
      idempotent: true,
      execute: ({ word }, { toolCallId }) => run(toolCallId, `${word}: a lever to steer a boat`),
    }),
    defineTool({ name: 'say_hi', description: 'Says hi.', input: z.object({}), execute: (_args, { toolCallId }) => run(toolCallId, 'hi') }),
  ];
}
