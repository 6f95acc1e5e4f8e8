import type { ToolCallPart } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tools/define-tool.js';
import { runToolCall } from './run-tool-call.js';

const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCallPart => ({ type: 'toolCall', id, name, args });
const textOf = (outcome: { content: Array<{ type: string; text?: string }> }) => outcome.content.map((p) => p.text ?? '').join('');

const echo = defineTool({ name: 'echo', description: 'echoes', input: z.object({ text: z.string().default('none') }), execute: ({ text }) => `echo ${text}` });

describe('runToolCall', () => {
  it('runs the named tool with its parsed arguments, telling onStart first and onFinish after', async () => {
    const told: string[] = [];
    const outcome = await runToolCall(call('a', 'echo'), {
      tools: [echo],
      onStart: (c) => void told.push(`start ${c.id}`),
      onFinish: (c, o, durationMs) => void told.push(`finish ${c.id} ${o.isError} ${durationMs >= 0}`),
    });
    expect(outcome).toMatchObject({ toolCallId: 'a', isError: false });
    expect(textOf(outcome)).toBe('echo none');
    expect(told).toEqual(['start a', 'finish a false true']);
  });

  it('turns a throwing tool, a tool past its time and an aborted turn into error results', async () => {
    const boom = defineTool({ name: 'boom', description: 'throws', input: z.object({}), execute: () => { throw new Error('disk full'); } });
    const stuck = defineTool({ name: 'stuck', description: 'never ends', input: z.object({}), execute: () => new Promise(() => {}) });
    expect(textOf(await runToolCall(call('b', 'boom'), { tools: [boom] }))).toContain('Tool "boom" failed: disk full');
    expect(textOf(await runToolCall(call('s', 'stuck'), { tools: [stuck], limits: { toolTimeoutMs: 20 } }))).toContain('did not finish within 20 ms');
    const controller = new AbortController();
    const aborted = runToolCall(call('s', 'stuck'), { tools: [stuck], signal: controller.signal });
    controller.abort(new Error('stop'));
    expect(await aborted).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('the turn was aborted') }] });
  });

  it('cuts a long result at maxToolOutputChars, and answers an unknown tool or bad arguments with an error result', async () => {
    const long = defineTool({ name: 'long', description: 'long', input: z.object({}), execute: () => 'x'.repeat(500) });
    const cut = await runToolCall(call('l', 'long'), { tools: [long], limits: { maxToolOutputChars: 100 } });
    expect(textOf(cut).length).toBeLessThan(300);
    expect(textOf(await runToolCall(call('u', 'gone'), { tools: [echo] }))).toContain('Unknown tool "gone"');
    expect(await runToolCall(call('e', 'echo', { text: 5 }), { tools: [echo] })).toMatchObject({ isError: true });
  });

  it("tells onListenerError of an abort listener the tool added that throws at its time limit, and the call gets its timeout result", async () => {
    const messy = defineTool({
      name: 'messy',
      description: 'cleans up badly',
      input: z.object({}),
      execute: (_args, { signal }) => {
        signal.addEventListener('abort', () => {
          throw new Error('cleanup failed');
        });
        return new Promise(() => {});
      },
    });
    const told: string[] = [];
    const outcome = await runToolCall(call('m', 'messy'), { tools: [messy], limits: { toolTimeoutMs: 20 }, onListenerError: (c, error) => void told.push(`${c.id} ${(error as Error).message}`) });
    expect(textOf(outcome)).toContain('did not finish within 20 ms');
    expect(told).toEqual(['m cleanup failed']);
  });
});
