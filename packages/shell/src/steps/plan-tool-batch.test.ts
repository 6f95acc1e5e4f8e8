import type { RunToolsEffect, ToolCallPart } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import type { ToolPolicy } from '../tools/policy.js';
import { planToolBatch } from './plan-tool-batch.js';

const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCallPart => ({ type: 'toolCall', id, name, args });
const batch = (calls: ToolCallPart[], decisions: RunToolsEffect['decisions'] = []): RunToolsEffect => ({ type: 'run_tools', id: 'b1', calls, decisions });

let ran = 0;
const read = defineTool({ name: 'read', description: 'reads', input: z.object({ path: z.string() }), execute: () => ++ran });
const write = defineTool({ name: 'write', description: 'writes', input: z.object({ path: z.string() }), sequential: true, execute: () => ++ran });

describe('planToolBatch', () => {
  it('runs nothing, refuses unknown tools and bad arguments with the reason and the error result, and marks the rest to run', async () => {
    const plan = await planToolBatch(batch([call('a', 'read', { path: 'x' }), call('b', 'nope'), call('c', 'read', { path: 3 })]), { tools: [read] });
    expect(ran).toBe(0);
    if (plan.kind !== 'run') throw new Error('expected a plan that runs');
    expect(plan.calls.map((c) => c.kind)).toEqual(['run', 'refused', 'refused']);
    expect(plan.calls.map((c) => c.call.id)).toEqual(['a', 'b', 'c']);
    const [, unknown, invalid] = plan.calls;
    expect(unknown).toMatchObject({ outcome: { toolCallId: 'b', isError: true, content: [{ text: expect.stringContaining('Unknown tool "nope". The tools available are: read') }] } });
    expect(invalid).toMatchObject({ outcome: { toolCallId: 'c', isError: true, content: [{ text: expect.stringContaining('Invalid arguments for tool "read"') }] } });
    // The refusal a durable engine tells its host, as the shell's tool.refused tells it: the message is the result the model reads.
    for (const [refused, reason] of [[unknown, 'unknown_tool'], [invalid, 'invalid_arguments']] as const) {
      if (refused?.kind !== 'refused') throw new Error('expected a refused call');
      expect(refused.refusal).toEqual({ reason, message: (refused.outcome.content[0] as { text: string }).text });
    }
    expect(plan.concurrency).toBe(4);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });

  it('asks for the calls the policy asks about, and follows the host decisions without asking again', async () => {
    const asked: string[] = [];
    const policy: ToolPolicy = (c) => {
      asked.push(c.id);
      return c.name === 'write' ? { decision: 'ask' } : { decision: 'allow' };
    };
    const calls = [call('a', 'read', { path: 'x' }), call('b', 'write', { path: 'y' })];
    expect(await planToolBatch(batch(calls), { tools: [read, write], policy })).toEqual({ kind: 'ask', toolCallIds: ['b'] });
    asked.length = 0;
    const decided = await planToolBatch(batch(calls, [{ toolCallId: 'b', decision: 'deny', rationale: 'not today' }]), { tools: [read, write], policy });
    expect(asked).toEqual(['a']);
    expect(decided).toMatchObject({ kind: 'run', calls: [{ kind: 'run' }, { kind: 'refused', refusal: { reason: 'denied', message: expect.stringContaining('not today') }, outcome: { isError: true, content: [{ text: expect.stringContaining('not today') }] } }] });
  });

  it('denies what a throwing policy was asked, and plans one at a time when a sequential tool runs', async () => {
    const plan = await planToolBatch(batch([call('a', 'read', { path: 'x' }), call('b', 'write', { path: 'y' })]), {
      tools: [read, write],
      policy: (c) => {
        if (c.id === 'a') throw new Error('policy down');
        return { decision: 'allow' };
      },
      limits: { maxToolConcurrency: 8 },
    });
    expect(plan).toMatchObject({ kind: 'run', concurrency: 1, calls: [{ kind: 'refused', refusal: { reason: 'denied' }, outcome: { content: [{ text: expect.stringContaining('policy down') }] } }, { kind: 'run' }] });
  });

  it('takes maxToolConcurrency from the limits, and names a bad limit', async () => {
    expect(await planToolBatch(batch([call('a', 'read', { path: 'x' })]), { tools: [read], limits: { maxToolConcurrency: 2 } })).toMatchObject({ concurrency: 2 });
    await expect(planToolBatch(batch([]), { tools: [read], limits: { maxToolConcurrency: 0 } })).rejects.toThrow(/planToolBatch: invalid options:[\s\S]*at limits\.maxToolConcurrency/);
  });
});
