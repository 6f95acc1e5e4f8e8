// Runs one scenario in a process of its own: host code (a tool, a model, a compactor) adds its own
// listener to the abort signal the shell gave it, and that listener throws when the signal fires.
// Node reports a throw from an EventTarget listener as an uncaught exception, which would end this
// process; the parent checks that it lives to print its report as one JSON line and exit 0.
// Usage: node --import tsx throwing-abort-listener.child.ts <scenario>
import type { Compactor } from '@tiller/compaction';
import type { ModelStreamPart, TillerModel } from '@tiller/core';
import { scriptedModel } from '@tiller/testing';
import { z } from 'zod';
import { type AgentEvent, createAgent, defineTool } from '../../src/index.js';

export const LISTENER_SCENARIOS = ['tool, turn aborted', 'tool, time limit', 'tool, onabort', 'tool, async listener', 'model, turn aborted', 'compactor, turn aborted'] as const;
export type ListenerScenario = (typeof LISTENER_SCENARIOS)[number];

/** What the parent checks: how the aborted or timed-out turn ended, what the host heard, and that the next turn ran. */
export interface ListenerReport {
  first: unknown;
  toolResult: unknown;
  shellErrors: { where: string; message: string }[];
  next: unknown;
}

/** Resolves when the host code has added its listener, so the abort comes after it. */
function signalled() {
  let arrived!: () => void;
  const ready = new Promise<void>((resolve) => (arrived = resolve));
  return { ready, arrived };
}

/** Work that ignores its signal except for the listener that throws. */
const forever = () => new Promise<never>(() => {});

function throwingListener(signal: AbortSignal, how: 'listener' | 'onabort' | 'async'): void {
  switch (how) {
    case 'listener':
      signal.addEventListener('abort', () => {
        throw new Error('cleanup failed');
      });
      return;
    case 'onabort':
      signal.onabort = () => {
        throw new Error('cleanup failed');
      };
      return;
    case 'async':
      signal.addEventListener('abort', async () => {
        throw new Error('cleanup failed');
      });
      return;
    default: {
      const unknown: never = how;
      throw new TypeError(`unknown listener kind ${String(unknown)}`);
    }
  }
}

async function run(scenario: ListenerScenario): Promise<ListenerReport> {
  const { ready, arrived } = signalled();
  const toolCall = { toolCalls: [{ name: 'clean_up', args: {} }] };
  const how = scenario === 'tool, onabort' ? 'onabort' : scenario === 'tool, async listener' ? 'async' : 'listener';
  const tool = defineTool({
    name: 'clean_up',
    description: 'Adds an abort listener that throws, then waits.',
    input: z.object({}),
    ...(scenario === 'tool, time limit' ? { timeoutMs: 50 } : {}),
    execute: (_args, { signal }) => {
      throwingListener(signal, how);
      arrived();
      return forever();
    },
  });
  const hanging: TillerModel = {
    id: 'test/hanging',
    async *stream(request): AsyncIterable<ModelStreamPart> {
      throwingListener(request.signal, 'listener');
      arrived();
      await forever();
    },
  };
  const compactor: Compactor = {
    name: 'throwing-listener',
    maybeCompact: (_acc, ctx) => {
      throwingListener(ctx.signal!, 'listener');
      arrived();
      return forever();
    },
  };
  let calls = 0;
  const later = scriptedModel([{ text: 'the next answer' }]);
  const agent =
    scenario === 'model, turn aborted'
      ? createAgent({ model: { id: 'test/hanging', stream: (r) => (calls++ === 0 ? hanging.stream(r) : later.stream(r)) } })
      : scenario === 'compactor, turn aborted'
        ? createAgent({ model: later, compactor: { name: compactor.name, maybeCompact: (acc, ctx) => (calls++ === 0 ? compactor.maybeCompact(acc, ctx) : Promise.resolve({ acc, meta: { compacted: false, appended: [] } })) } })
        : createAgent({ model: scriptedModel([toolCall, { text: 'stopped' }, { text: 'the next answer' }]), tools: [tool] });
  const events: AgentEvent[] = [];
  agent.subscribe((e) => events.push(e));
  const first = agent.prompt('go');
  if (scenario !== 'tool, time limit') {
    await ready;
    await agent.abort('the host aborted');
  }
  const firstOutcome = await first;
  // A throw the shell let through would surface on the next tick as an uncaught exception.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const next = await agent.prompt('again');
  await agent.close();
  const toolResult = events.find((e) => e.type === 'message.added' && e.message.role === 'toolResult');
  return {
    first: firstOutcome,
    toolResult: toolResult?.type === 'message.added' ? toolResult.message : undefined,
    shellErrors: events.flatMap((e) => (e.type === 'shell.error' ? [{ where: e.where, message: e.message }] : [])),
    next,
  };
}

const scenario = process.argv[2];
if (import.meta.url === `file://${process.argv[1]}`) {
  if (!LISTENER_SCENARIOS.includes(scenario as ListenerScenario)) {
    process.stderr.write(`unknown scenario ${JSON.stringify(scenario)}; expected one of: ${LISTENER_SCENARIOS.join(', ')}\n`);
    process.exitCode = 2;
  } else {
    run(scenario as ListenerScenario).then(
      (report) => process.stdout.write(`${JSON.stringify(report)}\n`),
      (error: unknown) => {
        process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
        process.exitCode = 1;
      },
    );
  }
}
