import type { Compactor } from '@tiller/compaction';
import { parseEvent, start, step } from '@tiller/core';
import { TURN_MODEL_CONFIG, transitionsTaken, turnMachineStates, turnMachineTransitions, turnModelInput, turnModelPaths, type ModelPath } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memoryJournal, ModelError, replayJournal, type JournalLine, type ModelStreamPart, type TillerModel } from '../src/index.js';

/**
 * Inputs a correct shell never feeds, and why; the core's own model-based tests cover how the
 * core treats them. Everything else the model paths try, the shell is made to produce here.
 */
function notFromShell(label: string, before: unknown): string | null {
  if (label === 'junk' || label.startsWith('stale:')) return 'the shell drops answers to effects the turn no longer waits on';
  if (label.endsWith(':unknown_call') || label === 'compaction.done:detached') return 'the shell builds results from the effect itself';
  if (label === 'llm.failed:aborted') return 'an aborted call follows the abort input, so its answer is stale';
  if (label === 'turn.start' && before !== 'idle') return 'prompt() refuses while a turn runs';
  if (label === 'abort' && before === 'idle') return 'abort() does nothing when no turn runs';
  return null;
}

function shellPath(path: ModelPath): boolean {
  let before: unknown = 'idle';
  for (const { label, value } of path.steps) {
    if (label !== 'xstate.init' && notFromShell(label, before)) return false;
    before = value;
  }
  return true;
}

/** One label at a time, set by the driver and taken by the shell's model, compactor, policy and tool. */
function createGate() {
  let label: string | null = null;
  let wake: Array<() => void> = [];
  let generation = 0;
  const until = async (accept: (label: string) => boolean, signal?: AbortSignal): Promise<string> => {
    const mine = generation;
    while (label === null || !accept(label)) {
      await new Promise<void>((resolve) => {
        wake.push(resolve);
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      if (signal?.aborted || generation !== mine) throw new Error('the turn moved on');
    }
    return label;
  };
  return {
    set(next: string) {
      label = next;
      for (const resolve of wake.splice(0)) resolve();
    },
    until,
    async take(accept: (label: string) => boolean, signal?: AbortSignal) {
      const taken = await until(accept, signal);
      label = null;
      return taken;
    },
    /** After an abort: whoever still waits belongs to the old turn. */
    reset() {
      generation += 1;
      label = null;
      for (const resolve of wake.splice(0)) resolve();
    },
  };
}

function gatedShell(gate: ReturnType<typeof createGate>) {
  const model: TillerModel = {
    id: 'gated',
    async *stream(request): AsyncGenerator<ModelStreamPart> {
      const label = await gate.take((l) => l.startsWith('llm.'), request.signal);
      const reply = (content: Array<{ type: 'text'; text: string } | { type: 'toolCall'; id: string; name: string; args: object }>, stopReason: 'stop' | 'toolUse' | 'error' | 'aborted') =>
        ({ type: 'done', message: { role: 'assistant', content: content as never }, stopReason }) as const;
      switch (label) {
        case 'llm.done:tool_call':
          yield reply([{ type: 'toolCall', id: `call-${Math.random().toString(36).slice(2)}`, name: 'probe', args: {} }], 'toolUse');
          return;
        case 'llm.done:text':
          yield reply([{ type: 'text', text: 'answer' }], 'stop');
          return;
        case 'llm.done:error':
          yield reply([{ type: 'text', text: 'broken' }], 'error');
          return;
        case 'llm.done:aborted':
          yield reply([{ type: 'text', text: 'cut' }], 'aborted');
          return;
        case 'llm.failed:overflow':
        case 'llm.failed:transient':
        case 'llm.failed:fatal':
          throw new ModelError(label.slice('llm.failed:'.length) as 'overflow', label);
        default:
          throw new Error(`no model behaviour for ${label}`);
      }
    },
  };
  const compactor: Compactor<unknown> = {
    name: 'gated',
    maybeCompact: async (acc, ctx) => {
      await gate.take((l) => l === 'compaction.done', ctx.signal);
      return { acc, meta: { compacted: false, appended: [] } };
    },
  };
  const probe = defineTool({
    name: 'probe',
    description: 'probes',
    input: z.object({}),
    execute: async (_args, { signal }) => {
      await gate.take((l) => l === 'tools.done', signal);
      return 'ok';
    },
  });
  // The policy only reads the label: `tools.done` is taken by the tool when it runs.
  const policy = async () => {
    const label = await gate.until((l) => l === 'approval.needed' || l === 'tools.done');
    if (label === 'tools.done') return { decision: 'allow' as const };
    await gate.take((l) => l === 'approval.needed');
    return { decision: 'ask' as const };
  };
  return { model, compactor, tools: [probe], policy };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** Drives one path through a real agent: host labels through the host API, the rest through the gated model, compactor, policy and tool. */
async function driveThroughShell(path: ModelPath): Promise<JournalLine[]> {
  const gate = createGate();
  const journal = memoryJournal();
  const agent = createAgent({ ...gatedShell(gate), journal, limits: { maxIterations: TURN_MODEL_CONFIG.maxIterations, maxRetries: 0 } });
  const inputs = () => journal.lines.filter((l) => l.type === 'input');
  let fed = 0;
  for (const { label, value } of path.steps) {
    if (label === 'xstate.init') continue;
    switch (label) {
      case 'turn.start':
        void agent.prompt('prompt');
        break;
      case 'steer':
        await agent.steer('steer');
        break;
      case 'follow_up':
        await agent.followUp('follow-up');
        break;
      case 'abort':
        gate.reset();
        await agent.abort('model abort');
        break;
      case 'approval.decided':
        agent.approve(agent.pendingApprovals().map((c) => ({ toolCallId: c.id, decision: 'allow' as const })));
        break;
      default:
        gate.set(label);
    }
    fed += 1;
    await waitFor(() => inputs().length >= fed, `${label} to be fed (path ${path.steps.map((s) => s.label).join(' > ')})`);
    const input = inputs()[fed - 1]!;
    expect(input.type === 'input' && input.input.type, `input fed for ${label}`).toBe(label.split(':')[0]);
    expect(agent.snapshot.value, `state after ${label}`).toEqual(value);
  }
  gate.reset();
  await agent.close();
  return [...journal.lines];
}

/** The transitions a journal's inputs take, and the states they visit. */
function coverage(lines: JournalLine[]) {
  const transitions = new Set<string>();
  const states = new Set<string>(['turn', 'turn.idle']);
  let snapshot = start(TURN_MODEL_CONFIG);
  for (const line of lines) {
    if (line.type !== 'input') continue;
    for (const t of transitionsTaken(snapshot, parseEvent(line.input))) transitions.add(t);
    snapshot = step(snapshot, line.input).snapshot;
    const value = snapshot.value;
    if (typeof value === 'string') states.add(`turn.${value}`);
    else for (const [parent, child] of Object.entries(value)) states.add(`turn.${parent}`).add(`turn.${parent}.${String(child)}`);
  }
  return { transitions, states };
}

/** The transitions the same path takes when the core is driven directly. */
function coreTransitions(path: ModelPath): Set<string> {
  let snapshot = start(TURN_MODEL_CONFIG);
  const taken = new Set<string>();
  for (const { label } of path.steps) {
    if (label === 'xstate.init') continue;
    const input = turnModelInput(snapshot, label);
    for (const t of transitionsTaken(snapshot, parseEvent(input))) taken.add(t);
    snapshot = step(snapshot, input).snapshot;
  }
  return taken;
}

const simple = turnModelPaths('simple');
const transitions = turnModelPaths('transitions').filter(shellPath);

describe('the core\'s model paths, re-driven through the real shell', () => {
  it('every simple path can be produced by the shell', () => {
    expect(simple.filter(shellPath)).toHaveLength(simple.length);
  });

  it('drives every path: every state, and every transition except those only stale or broken inputs take', async () => {
    const taken = new Set<string>();
    const visited = new Set<string>();
    const expected = new Set<string>();
    for (const path of [...simple, ...transitions]) {
      const lines = await driveThroughShell(path);
      if (lines.length > 0) expect(replayJournal(lines).divergence).toBeNull();
      const { transitions: t, states } = coverage(lines);
      for (const x of t) taken.add(x);
      for (const s of states) visited.add(s);
      for (const x of coreTransitions(path)) expected.add(x);
    }
    expect(turnMachineStates().filter((s) => !visited.has(s))).toEqual([]);
    expect([...expected].filter((t) => !taken.has(t))).toEqual([]);
    // What the shell does not take is exactly what only the inputs it never feeds take (stale and
    // broken answers, a second turn.start, an abort when idle): those the core's own tests drive.
    const everything = new Set(turnModelPaths('transitions').flatMap((p) => [...coreTransitions(p)]));
    expect(everything.size).toBe(turnMachineTransitions().length);
    const onlyFromOtherInputs = [...everything].filter((t) => !expected.has(t)).sort();
    expect(turnMachineTransitions().filter((t) => !taken.has(t)).sort()).toEqual(onlyFromOtherInputs);
  }, 120_000);
});
