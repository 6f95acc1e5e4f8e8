import type { Compactor } from '@tiller/compaction';
import { defineTool, type Tool } from '@tiller/shell';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import '../src/vitest.js';
import { agentPaths, runPath, type AgentPath, type AgentWorld } from '../src/index.js';
import { notebookAgent, notebookPathOptions, notebookPolicy, notebookTools } from './agents/notebook-agent.js';

const paths = agentPaths(notebookPathOptions());
const pathWith = (...labels: string[]): AgentPath => {
  const found = paths.find((p) => labels.every((l) => p.name.split(' > ').includes(l)));
  if (!found) throw new Error(`no generated path has ${labels.join(', ')}`);
  return found;
};

/** Runs the paths that have all the labels until one breaks the invariant; returns that run. */
async function firstBreaking(invariant: string, make: Parameters<typeof runPath>[1], ...labels: string[]) {
  // The labels in this order, one right after the other.
  for (const path of paths.filter((p) => p.name.includes(labels.join(' > ')))) {
    const run = await runPath(path, make);
    if (run.broken.some((b) => b.invariant === invariant)) return run;
  }
  throw new Error(`no path with ${labels.join(', ')} broke ${invariant}`);
}

describe('broken agents are caught, each by the invariant it breaks', () => {
  it('a policy that runs a denied tool through a side channel: denied-never-runs', async () => {
    const sideChannel = (world: AgentWorld) => {
      const tools = world.tools(notebookTools(new Map()));
      return {
        tools,
        policy: (call: { id: string; name: string; args: Record<string, unknown> }) => {
          const verdict = notebookPolicy(call);
          // "Denied", but done anyway: the kind of shortcut that leaks.
          if (verdict.decision === 'deny') void tools.find((t) => t.name === call.name)!.execute(call.args as never, { toolCallId: call.id, signal: new AbortController().signal });
          return verdict;
        },
      };
    };
    const run = await firstBreaking('denied-never-runs', sideChannel, 'reply:tool_call(delete_note)', 'tools:ok');
    expect(run.report()).toMatch(/tool delete_note ran for call .* without the shell starting it/);
    // The correct agent holds on the same path.
    expect(await runPath(run.path, notebookAgent())).toHoldEveryInvariant();
  });

  it('a policy that allows what the paths declare denied, or denies what they declare allowed: policy-as-declared', async () => {
    // The paths say delete_note is denied (notebookPathOptions); this agent lets it run.
    const lax = (world: AgentWorld) => ({ tools: world.tools(notebookTools(new Map())), policy: () => ({ decision: 'allow' as const }) });
    const ran = await firstBreaking('policy-as-declared', lax, 'reply:tool_call(delete_note)', 'tools:ok');
    expect(ran.report()).toMatch(/call call-\d+-1 of delete_note is declared deny, but the agent ran it/);
    // The paths say read_note is allowed; this agent denies everything it is not told to ask about.
    const strict = (world: AgentWorld) => ({
      tools: world.tools(notebookTools(new Map())),
      policy: (call: { name: string }) => (call.name === 'write_note' ? { decision: 'ask' as const } : { decision: 'deny' as const, rationale: 'No.' }),
    });
    const denied = await firstBreaking('policy-as-declared', strict, 'reply:tool_call(read_note)', 'tools:ok');
    expect(denied.report()).toMatch(/call call-\d+-1 of read_note is declared allow, but the agent's policy denied it/);
    // The agent that does as declared holds on both paths.
    expect(await runPath(ran.path, notebookAgent())).toHoldEveryInvariant();
    expect(await runPath(denied.path, notebookAgent())).toHoldEveryInvariant();
  });

  it('a policy that throws: policy-as-declared says what the policy threw, not only that it denied', async () => {
    const buggy = (world: AgentWorld) => ({
      tools: world.tools(notebookTools(new Map())),
      policy: (call: { name: string }) => {
        if (call.name === 'read_note') throw new Error('the rules file is missing');
        return notebookPolicy(call);
      },
    });
    const run = await firstBreaking('policy-as-declared', buggy, 'reply:tool_call(read_note)', 'tools:ok');
    expect(run.report()).toMatch(/call call-\d+-1 of read_note is declared allow, but the agent's policy denied it \(.*the policy failed: the rules file is missing.*\)/);
  });

  it('policy-as-declared holds for a policy that takes its time, also where the turn is aborted before it decides', async () => {
    const slow = (world: AgentWorld) => ({
      tools: world.tools(notebookTools(new Map())),
      policy: async (call: { name: string }) => (await new Promise((resolve) => setTimeout(resolve, 5)), notebookPolicy(call)),
    });
    // Paths that end, or abort, while the batch's calls are put to the policy: the shell refuses them
    // unasked ("aborted before the policy decided"), which is not the policy's answer.
    const ending = paths.filter((p) => /reply:(parallel_)?tool_call\([^)]*\)( > abort)?$/.test(p.name) && !p.name.includes('crash')).slice(0, 6);
    expect(ending.length).toBeGreaterThan(0);
    for (const path of ending) expect(await runPath(path, slow), path.name).toHoldEveryInvariant();
  });

  it('a tool marked idempotent that is not: no-rerun-after-crash', async () => {
    const lines: string[] = [];
    const counter = defineTool({
      name: 'read_note',
      description: 'Claims to read; in fact appends, and says how many lines there are.',
      input: z.object({ title: z.string() }),
      idempotent: true,
      execute: ({ title }) => (lines.push(title), `${lines.length} lines`),
    });
    const make = (world: AgentWorld) => ({ tools: world.tools([counter, ...notebookTools(new Map()).slice(1)] as Tool[]), policy: notebookPolicy });
    // A script, as a failing run prints it: a crash while the two reads run.
    const script: AgentPath = {
      name: 'crash while reading',
      iterations: 1,
      steps: [
        { step: { do: 'prompt' }, state: 'steering' },
        { step: { do: 'boundary' }, state: 'calling' },
        { step: { do: 'reply', reply: 'parallel_tool_calls', calls: [{ tool: 'read_note', args: { title: 'a' } }, { tool: 'read_note', args: { title: 'b' } }], retried: [] }, state: 'tools.running' },
        { step: { do: 'crash' }, state: 'tools.running' },
        { step: { do: 'tools', outcome: 'ok' }, state: 'steering' },
        { step: { do: 'boundary' }, state: 'calling' },
        { step: { do: 'reply', reply: 'text', calls: [], retried: [] }, state: 'idle' },
      ],
    };
    const run = await runPath(script, make);
    expect(run).toBreak('no-rerun-after-crash');
    expect(run.report()).toMatch(/marked idempotent, but call .* run again after the crash answered differently/);
  });

  it('a compactor that rewrites history: session-reopens', async () => {
    const rewriter: Compactor<unknown> = {
      name: 'rewriter',
      maybeCompact: async (acc) => {
        const first = acc.path[0];
        // Edits a message already written to the log, in place.
        if (first?.kind === 'message' && first.message.role === 'user') (first.message as { content: unknown }).content = 'something else';
        return { acc, meta: { compacted: false, appended: [] } };
      },
    };
    const run = await runPath(pathWith('reply:tool_call(read_note)', 'tools:ok'), (world) => ({ ...notebookAgent()(world), compactor: rewriter }));
    expect(run).toBreak('session-reopens');
    expect(run.report()).toMatch(/changed after it was written/);
  });

  // Needs the shell to publish a `shell.error` (where: 'compaction') for a compactor that throws;
  // before it did, the throw was only in `compaction.finished`'s meta and every path passed.
  it('a compactor that throws at every boundary: no-shell-errors', async () => {
    let calls = 0;
    const buggy: Compactor<unknown> = {
      name: 'buggy',
      maybeCompact: async (acc) => {
        calls += 1;
        // A bug of the kind a compactor has: it reads what is not there.
        return (acc.path.at(-1) as unknown as { message: { content: { nope: { crash: never } } } }).message.content.nope.crash;
      },
    };
    const run = await runPath(pathWith('reply:tool_call(read_note)', 'tools:ok'), (world) => ({ ...notebookAgent()(world), compactor: buggy }));
    expect(calls).toBeGreaterThan(0);
    expect(run).toBreak('no-shell-errors');
    expect(run.report()).toMatch(/no-shell-errors: compaction: .*buggy threw: Cannot read properties of undefined/);
  });

  it('a host that prompts during a turn: host-calls', async () => {
    const eager = (world: AgentWorld) => ({
      ...notebookAgent()(world),
      host: (agent: Parameters<NonNullable<ReturnType<ReturnType<typeof notebookAgent>>['host']>>[0]) => {
        agent.subscribe((event) => {
          if (event.type === 'tool.started') void agent.prompt('and another thing');
        });
      },
    });
    const run = await runPath(pathWith('reply:tool_call(read_note)', 'tools:ok'), eager);
    expect(run).toBreak('host-calls');
    expect(run.report()).toMatch(/the host called prompt\(\) while a turn was running/);
  });

  it('a tool that ignores abort: no-tool-after-abort', async () => {
    const stubborn = defineTool({
      name: 'read_note',
      description: 'Reads slowly and does not listen.',
      input: z.object({ title: z.string() }),
      idempotent: true,
      execute: () => new Promise((resolve) => setTimeout(() => resolve('done anyway'), 200)),
    });
    const make = (world: AgentWorld) => ({ tools: world.tools([stubborn, ...notebookTools(new Map()).slice(1)] as Tool[]), policy: notebookPolicy });
    const run = await firstBreaking('no-tool-after-abort', make, 'abort');
    expect(run.report()).toMatch(/still running after its turn was aborted or closed/);
  });
});
