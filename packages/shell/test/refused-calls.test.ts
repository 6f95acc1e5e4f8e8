import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { scriptedModel, type ScriptedReply } from '@tiller/testing';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, fromLanguageModel, type AgentEvent } from '../src/index.js';
import { nextEvent, recordEvents, recordingTools } from './helpers.js';

// A call the shell refuses before anything runs (a tool the agent does not have, arguments that
// are not a JSON object or that its schema refuses, a denial) gets an error result the model
// reads; the host hears of it as `tool.refused`, once, between the batch's `tools.started` and
// `tools.finished`. A host that draws tool calls from events (a CLI's ✗ line) draws these too.

/** The tool events of a turn, in order, as `type toolCallId`. */
const toolEvents = (events: AgentEvent[]) =>
  events.flatMap((e) => {
    switch (e.type) {
      case 'tools.started':
        return [`tools.started ${e.calls.map((c) => c.id).join(',')}`];
      case 'tool.started':
      case 'tool.finished':
      case 'tool.refused':
        return [`${e.type} ${e.toolCallId}`];
      case 'tools.finished':
        return ['tools.finished'];
      default:
        return [];
    }
  });

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const finish = (unified: 'stop' | 'tool-calls'): LanguageModelV3StreamPart => ({ type: 'finish', finishReason: { unified, raw: unified }, usage });

/** A model whose first reply makes these calls and whose second says it is done. */
const callsThenDone = (...toolCalls: NonNullable<ScriptedReply['toolCalls']>) => scriptedModel([{ toolCalls }, { text: 'done' }]);

describe('a tool call refused before it runs is told to the host', () => {
  it('a tool the agent does not have: tool.refused with the result the model reads, beside a call that runs', async () => {
    const model = callsThenDone({ id: 'call_1', name: 'fetch_url', args: { url: 'https://example.com' } }, { id: 'call_2', name: 'echo', args: { text: 'hi' } });
    const { echo, calls } = recordingTools();
    const agent = createAgent({ model, tools: [echo] });
    const events = recordEvents(agent);
    expect(await agent.prompt('fetch it')).toMatchObject({ status: 'completed' });
    expect(calls.map((c) => c.toolCallId)).toEqual(['call_2']);

    expect(toolEvents(events)).toEqual(['tools.started call_1,call_2', 'tool.refused call_1', 'tool.started call_2', 'tool.finished call_2', 'tools.finished']);
    const refused = events.find((e) => e.type === 'tool.refused')!;
    expect(refused).toEqual({
      type: 'tool.refused',
      batchId: expect.any(String),
      toolCallId: 'call_1',
      toolName: 'fetch_url',
      reason: 'unknown_tool',
      message: 'Unknown tool "fetch_url". The tools available are: echo.',
      at: expect.any(String),
    });
    // The same words the model read in its result.
    const result = model.requests[1]!.messages.find((m) => m.role === 'toolResult' && m.toolCallId === 'call_1');
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: refused.type === 'tool.refused' ? refused.message : '' }] });
    await agent.close();
  });

  it('arguments that are not a JSON object (through fromLanguageModel), and arguments the schema refuses', async () => {
    let call = 0;
    const replies: LanguageModelV3StreamPart[][] = [
      [
        { type: 'tool-call', toolCallId: 'call_junk', toolName: 'echo', input: 'not json {{{' },
        { type: 'tool-call', toolCallId: 'call_bad', toolName: 'echo', input: '{"text": 42}' },
        finish('tool-calls'),
      ],
      [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'sorry' }, { type: 'text-end', id: 't' }, finish('stop')],
    ];
    const model = fromLanguageModel(new MockLanguageModelV3({ doStream: async () => ({ stream: convertArrayToReadableStream(replies[call++]!) }) }));
    const { echo, calls } = recordingTools();
    const agent = createAgent({ model, tools: [echo] });
    const events = recordEvents(agent);
    expect(await agent.prompt('echo something')).toMatchObject({ status: 'completed' });
    expect(calls).toEqual([]);

    expect(toolEvents(events)).toEqual(['tools.started call_junk,call_bad', 'tool.refused call_junk', 'tool.refused call_bad', 'tools.finished']);
    expect(events.filter((e) => e.type === 'tool.refused')).toMatchObject([
      { toolCallId: 'call_junk', toolName: 'echo', reason: 'unreadable_arguments', message: expect.stringMatching(/^Tool "echo" did not run: its arguments are not a JSON object: not json \{\{\{/) },
      { toolCallId: 'call_bad', toolName: 'echo', reason: 'invalid_arguments', message: expect.stringMatching(/^Invalid arguments for tool "echo":/) },
    ]);
    await agent.close();
  });

  it('an input schema that throws while it checks', async () => {
    const checked = defineTool({
      name: 'checked',
      description: 'a tool whose schema throws',
      input: z.object({}).refine(() => {
        throw new Error('the refine broke');
      }),
      execute: async () => 'never',
    });
    const model = callsThenDone({ id: 'call_1', name: 'checked', args: {} });
    const agent = createAgent({ model, tools: [checked] });
    const events = recordEvents(agent);
    expect(await agent.prompt('check')).toMatchObject({ status: 'completed' });
    expect(events.filter((e) => e.type === 'tool.refused')).toMatchObject([
      { toolCallId: 'call_1', reason: 'schema_failed', message: expect.stringContaining('its input schema failed while checking the arguments: the refine broke') },
    ]);
    await agent.close();
  });

  it('a call the policy denies, and one the host denies after it asked: each told once, after the decision', async () => {
    const model = callsThenDone({ id: 'call_deny', name: 'echo', args: { text: 'no' } }, { id: 'call_ask', name: 'echo', args: { text: 'ask me' } });
    const { echo, calls } = recordingTools();
    const agent = createAgent({
      model,
      tools: [echo],
      policy: (call) => ((call.args as { text: string }).text === 'no' ? { decision: 'deny', rationale: 'not this one' } : { decision: 'ask' }),
    });
    const events = recordEvents(agent);
    const outcome = agent.prompt('echo twice');
    await nextEvent(agent, 'approval.requested');
    // Nothing is refused while the host has yet to decide.
    expect(events.filter((e) => e.type === 'tool.refused')).toEqual([]);
    agent.approve([{ toolCallId: 'call_ask', decision: 'deny', rationale: 'the host said no' }]);
    expect(await outcome).toMatchObject({ status: 'completed' });
    expect(calls).toEqual([]);
    expect(events.filter((e) => e.type === 'tool.refused')).toMatchObject([
      { toolCallId: 'call_deny', reason: 'denied', message: 'The call to "echo" was denied: not this one' },
      { toolCallId: 'call_ask', reason: 'denied', message: 'The call to "echo" was denied: the host said no' },
    ]);
    await agent.close();
  });
});
