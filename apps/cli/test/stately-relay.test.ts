import { createWebSocketReceiver, type StatelyInspectionEvent } from '@statelyai/inspect';
import { createAgent } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatelyRelay } from '../src/inspect/stately-relay.js';
import { connects } from './connects.js';
import { tsxLoader } from './tiller.js';

// The relay forks its script beside it, here the TypeScript source: Node 20 runs it through tsx's
// loader, which the forked process takes from NODE_OPTIONS (the test runner loads TypeScript
// without one).
const nodeOptions = process.env.NODE_OPTIONS;
beforeAll(() => {
  process.env.NODE_OPTIONS = [nodeOptions, `--import=${tsxLoader}`].filter(Boolean).join(' ');
});
afterAll(() => {
  if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = nodeOptions;
});

describe("Stately's relay", () => {
  it("listens on 127.0.0.1 alone and carries the shell's turn, definition first, to a receiver", async () => {
    const relay = await startStatelyRelay();
    const received: StatelyInspectionEvent[] = [];
    try {
      // Stately's server takes no address; another loopback address (which a server on every interface answers) is refused.
      expect(await connects('127.0.0.1', relay.port)).toBe(true);
      expect(await connects('127.0.0.2', relay.port)).toBe(false);
      createWebSocketReceiver({ server: `ws://127.0.0.1:${relay.port}` }).subscribe((event) => void received.push(event));
      const agent = createAgent({ model: scriptedModel([{ text: 'hi' }]), inspect: relay.inspector });
      await agent.prompt('hello');
      for (let i = 0; i < 250 && received.length < 7; i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await relay.close();
    }
    expect(received.map((e) => e.type)).toEqual(['@xstate.actor', ...Array(3).fill(['@xstate.event', '@xstate.snapshot']).flat()]);
    // The chart Stately draws comes from this definition: the machine's own config, every state in it.
    const actor = received[0] as Extract<StatelyInspectionEvent, { type: '@xstate.actor' }>;
    const definition = JSON.parse(actor.definition ?? 'null') as { id: string; states: Record<string, unknown> };
    expect(definition.id).toBe('turn');
    expect(Object.keys(definition.states).sort()).toEqual(['calling', 'idle', 'steering', 'tools']);
    expect(received.slice(1).every((e) => e.sessionId === actor.sessionId)).toBe(true);
    expect(received.filter((e) => e.type === '@xstate.event').map((e) => (e as { event: { type: string } }).event.type)).toEqual(['turn.start', 'compaction.done', 'llm.done']);
    expect(received.at(-1)).toMatchObject({ snapshot: { value: 'idle', context: { lastOutcome: { status: 'completed' } } } });
  }, 30_000);
});
