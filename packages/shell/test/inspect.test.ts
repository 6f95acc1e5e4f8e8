import { createInspector, type StatelyInspectionEvent } from '@statelyai/inspect';
import { describe, expect, it } from 'vitest';
import { createAgent, type InspectionRecord, type InspectorLike } from '../src/index.js';
import { scriptedModel } from '@tiller/testing';
import { recordingTools } from './helpers.js';

const twoRounds = () => scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'x' } }] }, { text: 'done' }]);

describe('inspect', () => {
  it('reports the actor once, then every input and the snapshot it led to', async () => {
    const calls: Array<[string, ...unknown[]]> = [];
    const inspector: InspectorLike = {
      actor: (...args) => void calls.push(['actor', ...args]),
      event: (...args) => void calls.push(['event', ...args]),
      snapshot: (...args) => void calls.push(['snapshot', ...args]),
    };
    const { echo } = recordingTools();
    const agent = createAgent({ model: twoRounds(), tools: [echo], inspect: inspector });
    await agent.prompt('go');

    // An actor-like object: @statelyai/inspect reads the definition from its logic.config only.
    expect(calls[0]).toMatchObject(['actor', { sessionId: expect.stringMatching(/^tiller\.turn:/), logic: { config: { id: 'turn' } } }, { status: 'active', value: 'idle' }]);
    const events = calls.filter((c) => c[0] === 'event');
    const snapshots = calls.filter((c) => c[0] === 'snapshot');
    expect(events.map((c) => (c[2] as { type: string }).type)).toEqual(['turn.start', 'compaction.done', 'llm.done', 'tools.done', 'compaction.done', 'llm.done']);
    expect(snapshots.map((c) => (c[2] as { value: unknown }).value)).toEqual(['steering', 'calling', { tools: 'running' }, 'steering', 'calling', 'idle']);
    // Each snapshot names the event that led to it, and the context is summarised, not the whole log.
    expect(snapshots[2]![3]).toMatchObject({ event: { type: 'llm.done' } });
    expect(snapshots[2]![2]).toMatchObject({ context: { entries: 2, turn: { iterations: 0, pending: { type: 'run_tools' } } } });
    expect(snapshots.at(-1)![2]).toMatchObject({ context: { lastOutcome: { status: 'completed' }, turn: null } });
  });

  it('works with @statelyai/inspect\'s own inspector, which turns the calls into Stately inspection events', async () => {
    const sent: StatelyInspectionEvent[] = [];
    const inspector = createInspector({ send: (event) => void sent.push(event) });
    const { echo } = recordingTools();
    const agent = createAgent({ model: twoRounds(), tools: [echo], inspect: inspector });
    await agent.prompt('go');
    expect(sent[0]).toMatchObject({ type: '@xstate.actor', sessionId: expect.stringMatching(/^tiller\.turn:/), name: 'turn' });
    expect(JSON.parse((sent[0] as { definition: string }).definition)).toMatchObject({ id: 'turn', initial: 'idle' });
    expect(sent.filter((e) => e.type === '@xstate.event').map((e) => (e as { event: { type: string } }).event.type)).toContain('tools.done');
    expect(sent.filter((e) => e.type === '@xstate.snapshot').at(-1)).toMatchObject({ snapshot: { value: 'idle' } });
  });

  it('reports to a plain function too', async () => {
    const records: InspectionRecord[] = [];
    const agent = createAgent({ model: scriptedModel([{ text: 'hi' }]), inspect: (record) => records.push(record) });
    await agent.prompt('hello');
    expect(records.map((r) => r.kind)).toEqual(['actor', ...Array(3).fill(['event', 'snapshot']).flat()]);
  });
});
