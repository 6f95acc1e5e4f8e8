import { stat } from 'node:fs/promises';
import type { ToolResultMessage } from '@tiller/core';
import { scriptedModel, type ScriptedReply } from '@tiller/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentEvent, type Tool } from '../../src/index.js';
import { recordEvents, recordingTools } from '../helpers.js';
import { fileSession, sessionProblems, type FileSession } from './fault-helpers.js';

// Tools that go wrong, each through a real agent: its reply asks for the tool, the shell runs it,
// and the model's next request carries what became of it. `src/tools/run-tool-batch.test.ts` checks
// each conversion on its own; here it is the outcome a user meets: a result the model can read,
// a turn that completes, a session that stays valid, and the next prompt. One row each in
// docs/reliability.md ("Tool faults").

interface Case {
  fault: string;
  tool: Tool;
  /** The calls of the model's reply (default: one call of `tool` with no arguments). */
  calls?: ScriptedReply['toolCalls'];
  /** What each result sent back to the model says, in call order. */
  results: Array<{ isError: boolean; text: RegExp }>;
  /** More to check, once the turn ended. */
  check?: (run: { events: AgentEvent[]; file: FileSession }) => Promise<void> | void;
}

const TOOL_TIMEOUT_MS = 150;

const tool = (name: string, execute: () => unknown, input: z.ZodObject = z.object({})) =>
  defineTool({ name, description: `a tool that goes wrong: ${name}`, input, execute: execute as never });

const circular: Record<string, unknown> = { name: 'loop' };
circular.self = circular;

/** Settles when the tool that ignored its signal finally gives up (long after it was stopped). */
let lateRejection: Promise<void> = Promise.resolve();

const TEN_MB = 10 * 1024 * 1024;

const cases: Case[] = [
  {
    fault: 'throws an Error (async)',
    tool: tool('throws', async () => {
      throw new Error('disk full');
    }),
    results: [{ isError: true, text: /^Tool "throws" failed: disk full$/ }],
  },
  {
    fault: 'throws synchronously, a plain object',
    tool: tool('throwsObject', () => {
      throw { code: 'E_DISK', free: 0 };
    }),
    results: [{ isError: true, text: /^Tool "throwsObject" failed: \{"code":"E_DISK","free":0\}$/ }],
  },
  {
    fault: 'hangs, ignoring its signal, and rejects long after it was stopped',
    tool: tool('hangs', () => {
      const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('gave up at last')), TOOL_TIMEOUT_MS * 3));
      lateRejection = late.then(
        () => undefined,
        () => undefined,
      );
      return late;
    }),
    results: [{ isError: true, text: new RegExp(`^Tool "hangs" did not finish within ${TOOL_TIMEOUT_MS} ms and was stopped\\.$`) }],
    // Its late rejection reaches no one: no unhandled rejection (vitest fails the run on one).
    check: () => lateRejection,
  },
  {
    fault: 'returns 10 MB of text',
    tool: tool('huge', async () => 'x'.repeat(TEN_MB)),
    results: [{ isError: false, text: new RegExp(`^x{50000}\\n\\[Output truncated: the first 50000 of ${TEN_MB} characters are shown\\.\\]$`) }],
    // What was cut is not stored either.
    check: async ({ file }) => expect((await stat(file.path)).size).toBeLessThan(200_000),
  },
  {
    fault: 'returns a circular object',
    tool: tool('circular', async () => circular),
    results: [{ isError: true, text: /^Tool "circular" returned a circular object, which cannot be sent to the model/ }],
  },
  {
    fault: 'returns a BigInt (inside an object)',
    tool: tool('bigint', async () => ({ size: 10n })),
    results: [{ isError: true, text: /^Tool "bigint" returned a value holding a BigInt, which cannot be sent/ }],
  },
  {
    fault: 'returns undefined',
    tool: tool('nothing', async () => undefined),
    results: [{ isError: false, text: /^$/ }],
  },
  {
    fault: 'returns a function',
    tool: tool('fn', async () => function secretSource() {
      return 'the hidden body';
    }),
    results: [{ isError: true, text: /^Tool "fn" returned a function, which cannot be sent to the model\.(?![\s\S]*hidden body)/ }],
  },
  {
    fault: 'returns content parts that are neither text nor images',
    tool: tool('audio', async () => ({ content: [{ type: 'audio', data: 'AAA' }] })),
    results: [{ isError: true, text: /^Tool "audio" returned content that is not text \(\{type: 'text', text\}\) or images/ }],
  },
  {
    fault: 'returns an image without a mimeType, and details that are circular',
    tool: defineTool({ name: 'image', description: 'image', input: z.object({ details: z.boolean() }), execute: async ({ details }) => (details ? { content: [{ type: 'text', text: 'ok' }], details: circular } : { content: [{ type: 'image', data: 'AAA' }] }) as never }),
    calls: [{ name: 'image', args: { details: false } }, { name: 'image', args: { details: true } }],
    results: [
      { isError: true, text: /^Tool "image" returned content that is not text[\s\S]*mimeType/ },
      { isError: true, text: /^Tool "image" returned details holding a circular object, which cannot be stored\.$/ },
    ],
  },
  {
    fault: 'is called with arguments its schema refuses',
    tool: tool('strict', async () => 'never runs', z.object({ path: z.string(), lines: z.number().int() })),
    calls: [{ name: 'strict', args: { path: 7 } }],
    results: [{ isError: true, text: /^Invalid arguments for tool "strict":[\s\S]*path[\s\S]*lines[\s\S]*Call the tool again with arguments that match its schema\.$/ }],
  },
  {
    fault: 'is a tool the agent does not have',
    tool: tool('known', async () => 'never runs'),
    calls: [{ name: 'unknownTool', args: {} }],
    results: [{ isError: true, text: /^Unknown tool "unknownTool"\. The tools available are: echo, known\.$/ }],
  },
];

let file: FileSession | undefined;
afterEach(async () => {
  await file?.dispose();
  file = undefined;
});

describe('tool faults through a real agent: a result the model can read, a turn that completes, a valid session', () => {
  it.each(cases.map((c) => [c.fault, c] as const))('a tool that %s', async (_, c) => {
    const calls = (c.calls ?? [{ name: c.tool.name, args: {} }]).map((call, i) => ({ id: `call_${i}`, ...call }));
    const model = scriptedModel([{ toolCalls: calls }, { text: 'I read the results.' }, { text: 'the next answer' }]);
    file = await fileSession();
    const { echo } = recordingTools();
    const agent = createAgent({ model, tools: [echo, c.tool], session: file.session, limits: { toolTimeoutMs: TOOL_TIMEOUT_MS } });
    const events = recordEvents(agent);

    expect(await agent.prompt('use the tool')).toMatchObject({ status: 'completed', stopReason: 'stop' });
    // What the model read in its next request: one result per call, in call order.
    const sent = model.requests[1]!.messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(sent.map((r) => r.toolCallId)).toEqual(calls.map((call) => call.id));
    for (const [i, expected] of c.results.entries()) {
      const result = sent[i]!;
      expect(result.toolName).toBe(calls[i]!.name);
      expect(result.isError).toBe(expected.isError);
      expect(result.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('')).toMatch(expected.text);
    }
    await c.check?.({ events, file });
    expect(events.filter((e) => e.type === 'shell.error')).toEqual([]);
    expect(await sessionProblems(agent, { file })).toEqual([]);

    expect(await agent.prompt('and the next prompt')).toMatchObject({ status: 'completed' });
    expect(await sessionProblems(agent, { file })).toEqual([]);
    await agent.close();
  });

  it('a reply that repeats a tool call id: the first call runs once, the repeat is dropped before anything runs, the model is told in its result, and the host hears of it', async () => {
    const { echo, calls } = recordingTools();
    const model = scriptedModel([
      { toolCalls: [{ id: 'call_dup', name: 'echo', args: { text: 'first' } }, { id: 'call_dup', name: 'echo', args: { text: 'second' } }] },
      { text: 'I read the result.' },
      { text: 'the next answer' },
    ]);
    file = await fileSession();
    const agent = createAgent({ model, tools: [echo], session: file.session });
    const events = recordEvents(agent);
    expect(await agent.prompt('echo twice')).toMatchObject({ status: 'completed' });
    expect(calls.map((c) => c.args)).toEqual([{ text: 'first' }]);
    expect(events.filter((e) => e.type === 'event.ignored')).toMatchObject([
      { note: { eventType: 'llm.done', reason: 'the reply repeats tool call id "call_dup": only its first call is kept' } },
    ]);
    // The stored reply holds the call once, so no later request repeats the id to the provider.
    const [, reply, result] = model.requests[1]!.messages;
    expect(reply).toMatchObject({ role: 'assistant', content: [{ type: 'toolCall', id: 'call_dup', args: { text: 'first' } }] });
    expect(reply!.role === 'assistant' && reply!.content).toHaveLength(1);
    // Its result says the repeat did not run, so the model can make that call again with an id of its own.
    expect(result).toMatchObject({
      role: 'toolResult',
      toolCallId: 'call_dup',
      toolName: 'echo',
      content: [{ type: 'text', text: 'first' }, { type: 'text', text: expect.stringContaining('1 more tool call with the id "call_dup"') }],
    });
    expect(await sessionProblems(agent, { file })).toEqual([]);
    expect(await agent.prompt('and the next prompt')).toMatchObject({ status: 'completed' });
    expect(await sessionProblems(agent, { file })).toEqual([]);
    await agent.close();
  });
});
