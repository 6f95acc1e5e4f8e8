import type { ToolCallPart } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool } from './define-tool.js';
import { runToolBatch, type ToolBatchOptions } from './run-tool-batch.js';

const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCallPart => ({ type: 'toolCall', id, name, args });

function tracked(name: string, extra: Partial<Pick<Tool, 'sequential' | 'timeoutMs'>> = {}) {
  const state = { running: 0, peak: 0, order: [] as string[] };
  const tool = defineTool({
    name,
    description: `${name} for tests`,
    input: z.object({ ms: z.number().default(5) }),
    ...extra,
    execute: async ({ ms }, { toolCallId }) => {
      state.running += 1;
      state.peak = Math.max(state.peak, state.running);
      await new Promise((r) => setTimeout(r, ms));
      state.running -= 1;
      state.order.push(toolCallId);
      return `${name} ${toolCallId}`;
    },
  });
  return { tool, state };
}

function options(tools: Tool[], calls: ToolCallPart[], extra: Partial<ToolBatchOptions> = {}): ToolBatchOptions {
  return {
    calls,
    decisions: [],
    tools: new Map(tools.map((t) => [t.name, t])),
    policy: undefined,
    signal: new AbortController().signal,
    maxConcurrency: 4,
    defaultTimeoutMs: 1_000,
    maxOutputChars: 1_000,
    ...extra,
  };
}

const textOf = (result: Awaited<ReturnType<typeof runToolBatch>>) => {
  if (result.kind !== 'done') throw new Error('expected results');
  return result.results.map((r) => ({ id: r.toolCallId, isError: r.isError, text: r.content.map((p) => (p.type === 'text' ? p.text : '')).join('') }));
};

describe('runToolBatch', () => {
  it('runs in parallel up to the cap and returns results in the order of the calls', async () => {
    const { tool, state } = tracked('work');
    const calls = [call('a', 'work', { ms: 40 }), call('b', 'work', { ms: 5 }), call('c', 'work', { ms: 20 }), call('d', 'work', { ms: 5 })];
    const result = await runToolBatch(options([tool], calls, { maxConcurrency: 2 }));
    expect(state.peak).toBe(2);
    expect(state.order).not.toEqual(['a', 'b', 'c', 'd']);
    expect(textOf(result).map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('runs the whole batch one at a time when one tool is sequential', async () => {
    const { tool: work, state } = tracked('work');
    const { tool: write } = tracked('write', { sequential: true });
    const calls = [call('a', 'work', { ms: 20 }), call('b', 'write', { ms: 5 }), call('c', 'work', { ms: 5 })];
    await runToolBatch(options([work, write], calls));
    expect(state.peak).toBe(1);
    expect(state.order).toEqual(['a', 'c']);
  });

  it('turns an unknown tool, bad arguments, a throw and a timeout into error results the model can read', async () => {
    const boom = defineTool({ name: 'boom', description: 'throws', input: z.object({}), execute: () => { throw new Error('disk full'); } });
    const slow = defineTool({ name: 'slow', description: 'never ends', input: z.object({}), timeoutMs: 20, execute: () => new Promise(() => {}) });
    const { tool: work } = tracked('work');
    const result = textOf(
      await runToolBatch(options([boom, slow, work], [call('1', 'nope'), call('2', 'work', { ms: 'soon' }), call('3', 'boom'), call('4', 'slow')])),
    );
    expect(result.every((r) => r.isError)).toBe(true);
    expect(result[0]!.text).toMatch(/Unknown tool "nope".*boom, slow, work/);
    expect(result[1]!.text).toMatch(/Invalid arguments for tool "work"[\s\S]*ms[\s\S]*Call the tool again/);
    expect(result[2]!.text).toBe('Tool "boom" failed: disk full');
    expect(result[3]!.text).toMatch(/did not finish within 20 ms/);
  });

  it('turns a return value that cannot be sent into an error result naming the tool, and converts Errors, Maps and Sets', async () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const returns = (name: string, value: () => unknown) =>
      defineTool({ name, description: name, input: z.object({}), execute: async () => value() });
    const tools = [
      returns('circular', () => circular),
      returns('bigint', () => ({ size: 10n })),
      returns('fn', () => function secretSource() { return 'hidden body'; }),
      returns('details', () => ({ content: [{ type: 'text', text: 'ok' }], details: circular })),
      returns('audio', () => ({ content: [{ type: 'audio', data: 'AAA' }] })),
      returns('image', () => ({ content: [{ type: 'image', data: 'AAA' }] })),
      returns('error', () => new Error('quota exceeded')),
      returns('map', () => new Map([['a', 1]])),
      returns('set', () => new Set(['x'])),
      defineTool({ name: 'throwsObject', description: 'throws', input: z.object({}), execute: () => { throw { code: 'E_DISK', free: 0 }; } }),
    ];
    const result = textOf(await runToolBatch(options(tools, tools.map((t, i) => call(String(i), t.name)))));
    const byName = Object.fromEntries(tools.map((t, i) => [t.name, result[i]!]));
    for (const name of ['circular', 'bigint', 'fn', 'details', 'audio', 'image', 'error', 'throwsObject']) {
      expect(byName[name]!.isError, name).toBe(true);
      expect(byName[name]!.text, name).toContain(`Tool "${name}"`);
    }
    expect(byName.circular!.text).toMatch(/circular object/);
    expect(byName.bigint!.text).toMatch(/BigInt/);
    expect(byName.fn!.text).toMatch(/a function/);
    expect(byName.fn!.text).not.toContain('hidden body');
    expect(byName.details!.text).toMatch(/details holding a circular object/);
    expect(byName.audio!.text).toMatch(/not text .* or images/);
    expect(byName.image!.text).toMatch(/mimeType/);
    expect(byName.error!.text).toBe('Tool "error" returned an error: quota exceeded');
    expect(byName.throwsObject!.text).toBe('Tool "throwsObject" failed: {"code":"E_DISK","free":0}');
    expect(byName.map).toMatchObject({ isError: false, text: '[["a",1]]' });
    expect(byName.set).toMatchObject({ isError: false, text: '["x"]' });
  });

  it('aborts the signal of a tool whose time is up', async () => {
    let reason: unknown;
    const slow = defineTool({
      name: 'slow',
      description: 'listens',
      input: z.object({}),
      timeoutMs: 10,
      execute: (_args, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => { reason = signal.reason; reject(new Error('stopped')); })),
    });
    const [only] = textOf(await runToolBatch(options([slow], [call('1', 'slow')])));
    expect(only!.text).toMatch(/did not finish within 10 ms/);
    expect((reason as Error).name).toBe('TimeoutError');
  });

  it('cuts long output and says so', async () => {
    const big = defineTool({ name: 'big', description: 'talks a lot', input: z.object({}), execute: () => 'x'.repeat(5_000) });
    const [only] = textOf(await runToolBatch(options([big], [call('1', 'big')], { maxOutputChars: 100 })));
    expect(only!.text.startsWith('x'.repeat(100) + '\n[Output truncated: the first 100 of 5000 characters are shown.]')).toBe(true);
  });

  it('asks about the calls the policy asks about, and runs nothing until they are decided', async () => {
    const { tool, state } = tracked('work');
    const policy = (c: ToolCallPart) => (c.id === 'b' ? { decision: 'ask' as const } : { decision: 'allow' as const });
    const asked = await runToolBatch(options([tool], [call('a', 'work'), call('b', 'work')], { policy }));
    expect(asked).toEqual({ kind: 'ask', toolCallIds: ['b'] });
    expect(state.order).toEqual([]);
    const denied = textOf(
      await runToolBatch(options([tool], [call('a', 'work'), call('b', 'work')], { policy, decisions: [{ toolCallId: 'b', decision: 'deny', rationale: 'not today' }] })),
    );
    expect(denied[1]).toEqual({ id: 'b', isError: true, text: 'The call to "work" was denied: not today' });
    expect(state.order).toEqual(['a']);
  });

  it('stops waiting for a policy that ignores the abort, and runs nothing', async () => {
    const { tool, state } = tracked('work');
    const controller = new AbortController();
    const pending = runToolBatch(options([tool], [call('a', 'work')], { policy: () => new Promise(() => {}), signal: controller.signal }));
    setTimeout(() => controller.abort('user'), 5);
    const [only] = textOf(await pending);
    expect(only!.text).toMatch(/denied: the turn was aborted before the policy decided/);
    expect(state.order).toEqual([]);
  });

  it('denies when the policy throws', async () => {
    const { tool, state } = tracked('work');
    const [only] = textOf(await runToolBatch(options([tool], [call('a', 'work')], { policy: () => { throw new Error('no rules'); } })));
    expect(only!.text).toMatch(/denied: the policy failed: no rules/);
    expect(state.order).toEqual([]);
  });

  it('gives every running tool the abort and stops waiting for tools that ignore it', async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const listens = defineTool({
      name: 'listens',
      description: 'waits for the abort',
      input: z.object({}),
      execute: (_args, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => { sawAbort = true; reject(new Error('stopped')); })),
    });
    const deaf = defineTool({ name: 'deaf', description: 'ignores the abort', input: z.object({}), execute: () => new Promise(() => {}) });
    const pending = runToolBatch(options([listens, deaf], [call('1', 'listens'), call('2', 'deaf')], { signal: controller.signal }));
    setTimeout(() => controller.abort('user'), 10);
    const result = textOf(await pending);
    expect(sawAbort).toBe(true);
    expect(result.map((r) => r.text)).toEqual(['Tool "listens" was stopped: the turn was aborted.', 'Tool "deaf" was stopped: the turn was aborted.']);
  });

  it('tells a tool that answers at once of an abort it caused while it ran', async () => {
    const controller = new AbortController();
    const seen: boolean[] = [];
    const stops = defineTool({
      name: 'stops',
      description: 'aborts the turn itself',
      input: z.object({}),
      execute: (_args, { signal }) => {
        seen.push(signal.aborted);
        controller.abort('the tool said so');
        seen.push(signal.aborted);
        return 'stopped it';
      },
    });
    const [stopped] = textOf(await runToolBatch(options([stops], [call('1', 'stops')], { signal: controller.signal })));
    expect(seen).toEqual([false, true]);
    expect(stopped!.text).toBe('Tool "stops" was stopped: the turn was aborted.');

  });

  it('gives a tool that first reads its signal after its time is up an aborted signal', async () => {
    let read: (signal: AbortSignal) => void;
    const readLate = new Promise<AbortSignal>((resolve) => (read = resolve));
    const late = defineTool({
      name: 'late',
      description: 'looks at its signal late',
      input: z.object({}),
      timeoutMs: 10,
      execute: async (_args, context) => {
        await new Promise((r) => setTimeout(r, 30));
        read(context.signal);
        return 'too late';
      },
    });
    const [only] = textOf(await runToolBatch(options([late], [call('1', 'late')])));
    expect(only!.text).toMatch(/did not finish within 10 ms/);
    const signal = await readLate;
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).name).toBe('TimeoutError');
  });

  it('ends a call\'s time limit with the call: a signal the tool keeps is not aborted later by it', async () => {
    let kept: AbortSignal | undefined;
    const quick = defineTool({
      name: 'quick',
      description: 'keeps its signal and returns at once',
      input: z.object({}),
      timeoutMs: 10,
      execute: (_args, context) => {
        kept = context.signal;
        return 'done';
      },
    });
    const [only] = textOf(await runToolBatch(options([quick], [call('1', 'quick')])));
    expect(only!.text).toBe('done');
    await new Promise((r) => setTimeout(r, 40));
    expect(kept!.aborted).toBe(false);
  });

  it('does not run a tool once the turn is aborted', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const work = defineTool({ name: 'work', description: 'records its calls', input: z.object({}), execute: (_args, { toolCallId }) => ran.push(toolCallId) });
    const [only] = textOf(await runToolBatch(options([work], [call('a', 'work')], { signal: controller.signal, onStart: async () => controller.abort('user') })));
    expect(only!.text).toBe('Tool "work" was stopped: the turn was aborted.');
    expect(ran).toEqual([]);
  });

  it('uses settled outcomes as they are, without running the tool', async () => {
    const { tool, state } = tracked('work');
    const settled = new Map([['a', { toolCallId: 'a', content: [{ type: 'text' as const, text: 'from before' }], isError: false }]]);
    const result = textOf(await runToolBatch(options([tool], [call('a', 'work'), call('b', 'work')], { settled })));
    expect(result[0]!.text).toBe('from before');
    expect(state.order).toEqual(['b']);
  });
});
