import { defineTool, type PolicyDecision, type Tool } from '@tiller/shell';
import { z } from 'zod';
import type { AgentUnderTest, AgentWorld, UserInvariant } from '../../src/index.js';

/**
 * A small, correct agent: a notebook kept outside the process (it survives a crash), a tool that
 * reads (idempotent), one that writes (the user approves each write) and one the policy refuses.
 */
export function notebookTools(notebook: Map<string, string[]>) {
  const readNote = defineTool({
    name: 'read_note',
    description: 'Reads a note by its title.',
    input: z.object({ title: z.string().min(1).max(20) }),
    idempotent: true,
    execute: async ({ title }, { signal }) => {
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
      return notebook.get(title)?.join('\n') ?? 'no such note';
    },
  });
  const writeNote = defineTool({
    name: 'write_note',
    description: 'Adds a line to a note.',
    input: z.object({ title: z.string().min(1).max(20), line: z.string().max(40) }),
    execute: async ({ title, line }) => {
      const lines = notebook.get(title) ?? [];
      notebook.set(title, [...lines, line]);
      return `the note "${title}" has ${lines.length + 1} lines`;
    },
  });
  const deleteNote = defineTool({
    name: 'delete_note',
    description: 'Deletes a note.',
    input: z.object({ title: z.string().min(1).max(20) }),
    execute: ({ title }) => (notebook.delete(title), 'deleted'),
  });
  return [readNote, writeNote, deleteNote] as Tool[];
}

export const notebookPolicy = (call: { name: string }): PolicyDecision => {
  if (call.name === 'write_note') return { decision: 'ask' };
  if (call.name === 'delete_note') return { decision: 'deny', rationale: 'Notes are never deleted.' };
  return { decision: 'allow' };
};

/** What agentPaths needs to know about it. */
export const notebookPathOptions = () => ({
  tools: notebookTools(new Map()),
  policy: { write_note: 'ask', delete_note: 'deny' } as const,
});

export function notebookAgent(notebook: Map<string, string[]> = new Map()) {
  return (world: AgentWorld): AgentUnderTest => ({
    tools: world.tools(notebookTools(notebook)),
    policy: notebookPolicy,
    systemPrompt: 'You keep the user\'s notebook.',
  });
}

/** Each write the transcript shows as done is in the notebook once: nothing lost, nothing twice. */
export const writesLandOnce = (notebook: Map<string, string[]>): UserInvariant => ({
  name: 'writes-land-once',
  check(run) {
    const done = run.toolRuns.filter((r) => r.tool === 'write_note' && r.settled && r.error === undefined && r.generation > 0);
    const written = [...notebook.values()].reduce((n, lines) => n + lines.length, 0);
    if (written !== done.length) return `the notebook holds ${written} lines, the tools wrote ${done.length}`;
  },
});
