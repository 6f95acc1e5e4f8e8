import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Compactor, WindowManager } from '@tiller/compaction';
import type { Entry, Message, TillerModel } from '@tiller/core';
import { createSessionLog, JsonlStore, MemoryStore } from '@tiller/session';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBrokenError, AgentBusyError, AgentClosedError, AgentOptionsError, ApprovalError, createAgent, defineTool, InvalidMessageError, journalPathFor, type AgentEvent } from '../src/index.js';
import { scriptedModel } from '@tiller/testing';
import { FaultyStore, nextEvent, recordEvents, recordingTools } from './helpers.js';

const roles = (messages: readonly Message[]) => messages.map((m) => m.role);

/** Every tool call in the transcript has exactly one result, right after its assistant message. */
function expectValidTranscript(messages: readonly Message[]) {
  for (const [i, message] of messages.entries()) {
    if (message.role !== 'assistant') continue;
    const calls = message.content.filter((p) => p.type === 'toolCall');
    const results = messages.slice(i + 1, i + 1 + calls.length);
    expect(results.map((r) => (r.role === 'toolResult' ? r.toolCallId : r.role))).toEqual(calls.map((c) => c.id));
  }
}

describe('createAgent: a turn end to end with the scripted model', () => {
  it("gives the model's final answer of the last turn, and nothing for a turn that ended without one", async () => {
    const { echo } = recordingTools();
    const model = scriptedModel([
      { toolCalls: [{ name: 'echo', args: { text: 'one' } }] },
      { thinking: 'so', text: 'It is ' },
      'hang',
      { text: 'Stopped at ', stopReason: 'length' },
    ]);
    const agent = createAgent({ model, tools: [echo] });
    expect(agent.lastReply()).toBeUndefined();

    expect(await agent.prompt('what time is it?')).toMatchObject({ status: 'completed' });
    const reply = agent.lastReply();
    expect(reply?.text).toBe('It is ');
    expect(reply?.message).toEqual(agent.session.context().at(-1));

    // Aborted before the model answered: that turn has no reply, and the one before is not it.
    const turn = agent.prompt('and now?');
    await nextEvent(agent, 'llm.started');
    await agent.abort('the user left');
    expect(await turn).toMatchObject({ status: 'aborted' });
    expect(agent.lastReply()).toBeUndefined();

    expect(await agent.prompt('once more')).toMatchObject({ status: 'completed', stopReason: 'length' });
    expect(agent.lastReply()?.text).toBe('Stopped at ');
    await agent.close();
  });

  it('gives the part of an answer the host aborted midway, as the session keeps it', async () => {
    const model = scriptedModel([{ text: 'The answer is long', chunkSize: 4, partDelayMs: 30 }]);
    const agent = createAgent({ model });
    const turn = agent.prompt('tell me');
    await nextEvent(agent, 'text.delta');
    await agent.abort('enough');
    expect(await turn).toMatchObject({ status: 'aborted' });
    const reply = agent.lastReply();
    expect(reply?.message).toMatchObject({ role: 'assistant', stopReason: 'aborted' });
    expect(reply?.message).toEqual(agent.session.context().at(-1));
    expect(reply?.text).toMatch(/^The /);
    expect('The answer is long'.startsWith(reply!.text)).toBe(true);
    await agent.close();
  });

  it('runs several tool rounds, offers the tools, and keeps the session log', async () => {
    const { echo, calls } = recordingTools();
    const model = scriptedModel([
      { thinking: 'first look', toolCalls: [{ name: 'echo', args: { text: 'one' } }] },
      { toolCalls: [{ name: 'echo', args: { text: 'two' } }] },
      { toolCalls: [{ name: 'echo', args: { text: 'three' } }] },
      { text: 'all echoed' },
    ]);
    const agent = createAgent({ model, tools: [echo], systemPrompt: 'Be brief.' });
    const events = recordEvents(agent);
    const outcome = await agent.prompt('echo three times');

    expect(outcome).toMatchObject({ status: 'completed', stopReason: 'stop', iterations: 3 });
    expect(calls.map((c) => c.args)).toEqual([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    expect(model.requests.map((r) => r.messages.length)).toEqual([1, 3, 5, 7]);
    expect(model.requests.every((r) => r.system === 'Be brief.' && r.toolNames.join() === 'echo')).toBe(true);
    const context = agent.session.context();
    expect(roles(context)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant', 'toolResult', 'assistant']);
    expect(context[2]).toMatchObject({ role: 'toolResult', toolName: 'echo', content: [{ type: 'text', text: 'one' }], isError: false });
    expect(context[1]).toMatchObject({ role: 'assistant', model: 'scripted/model', stopReason: 'toolUse' });
    // What the session holds is what the core's snapshot holds: every persist reached the log.
    expect(agent.session.path().map((e) => e.id)).toEqual(agent.snapshot.context.entries.toArray().map((e) => e.id));

    const types = events.map((e) => e.type);
    expect(types.indexOf('turn.started')).toBeLessThan(types.indexOf('llm.started'));
    expect(types.at(-1)).toBe('turn.ended');
    expect(types.filter((t) => t === 'llm.started')).toHaveLength(4);
    expect(types.filter((t) => t === 'tool.finished')).toHaveLength(3);
    expect(types.filter((t) => t === 'compaction.started')).toHaveLength(4);
    // The default compactor is answered without being asked: every boundary reports nothing compacted.
    expect(events.flatMap((e) => (e.type === 'compaction.finished' ? [e.meta] : []))).toEqual(Array(4).fill({ compacted: false }));
    expect(events.filter((e) => e.type === 'thinking.delta').map((e) => (e as { delta: string }).delta).join('')).toBe('first look');
    expect(events.filter((e) => e.type === 'text.delta').map((e) => (e as { delta: string }).delta).join('')).toBe('all echoed');
    expect(events.some((e) => e.type === 'toolcall.delta' && e.toolName === 'echo' && e.delta === '{"text":"two"}')).toBe(true);
  });

  it('survives tools that return what cannot be sent: each becomes an error result and the turn completes', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const returns = (name: string, value: unknown) => defineTool({ name, description: name, input: z.object({}), execute: async () => value });
    const tools = [returns('loop', circular), returns('big', 1n), returns('badDetails', { content: [{ type: 'text', text: 'x' }], details: circular }), returns('noMime', { content: [{ type: 'image', data: 'AAA' }] })];
    const model = scriptedModel([{ toolCalls: tools.map((t) => ({ name: t.name, args: {} })) }, { text: 'done' }]);
    const agent = createAgent({ model, tools });
    expect(await agent.prompt('go')).toMatchObject({ status: 'completed' });
    const results = agent.session.context().filter((m) => m.role === 'toolResult');
    expect(results.map((r) => [r.toolName, r.isError])).toEqual(tools.map((t) => [t.name, true]));
    expect(results.every((r) => r.content[0]?.type === 'text' && r.content[0].text.includes(`Tool "${r.toolName}"`))).toBe(true);
  });

  it('runs parallel calls of one reply and answers them in call order', async () => {
    const { sleep } = recordingTools();
    const model = scriptedModel([
      { toolCalls: [{ id: 'slow', name: 'sleep', args: { ms: 40 } }, { id: 'fast', name: 'sleep', args: { ms: 1 } }] },
      { text: 'ok' },
    ]);
    const agent = createAgent({ model, tools: [sleep] });
    const finished: string[] = [];
    agent.subscribe((e) => e.type === 'tool.finished' && finished.push(e.toolCallId));
    await agent.prompt('sleep twice');
    expect(finished).toEqual(['fast', 'slow']);
    expect(model.requests[1]!.messages.slice(2).map((m) => (m.role === 'toolResult' ? m.toolCallId : m.role))).toEqual(['slow', 'fast']);
  });

  it('runs a batch one call at a time when it holds a sequential tool', async () => {
    const { echo } = recordingTools();
    const log: string[] = [];
    const write = defineTool({
      name: 'write',
      description: 'writes, slowly',
      input: z.object({ n: z.number() }),
      sequential: true,
      execute: async ({ n }) => {
        log.push(`start ${n}`);
        await new Promise((r) => setTimeout(r, 10));
        log.push(`end ${n}`);
        return `wrote ${n}`;
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'write', args: { n: 1 } }, { name: 'echo', args: { text: 'between' } }, { name: 'write', args: { n: 2 } }] },
      { text: 'ok' },
    ]);
    const agent = createAgent({ model, tools: [write, echo] });
    const order: string[] = [];
    agent.subscribe((e) => (e.type === 'tool.started' || e.type === 'tool.finished') && order.push(`${e.type} ${e.toolName}`));
    await agent.prompt('write twice');
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    expect(order).toEqual(['tool.started write', 'tool.finished write', 'tool.started echo', 'tool.finished echo', 'tool.started write', 'tool.finished write']);
  });

  it('gives the events as an async iterator too, which ends when the agent closes', async () => {
    const agent = createAgent({ model: scriptedModel([{ text: 'hello there' }]) });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of agent) seen.push(event.type);
    })();
    await agent.prompt('hi');
    await agent.close();
    await reading;
    expect(seen[0]).toBe('message.added');
    expect(seen).toContain('text.delta');
    expect(seen.at(-1)).toBe('turn.ended');
  });

  it('delivers a steering message at the next boundary, after the tool batch', async () => {
    const { sleep } = recordingTools();
    const model = scriptedModel([{ toolCalls: [{ name: 'sleep', args: { ms: 30 } }] }, { text: 'changed course' }]);
    const agent = createAgent({ model, tools: [sleep] });
    const delivered = nextEvent(agent, 'messages.delivered');
    const done = agent.prompt('start');
    await nextEvent(agent, 'tool.started');
    await agent.steer('use the other approach');
    expect(await done).toMatchObject({ status: 'completed' });
    expect((await delivered).deliveries).toMatchObject([{ kind: 'steer', boundary: 'tool_batch' }]);
    expect(model.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'use the other approach' });
    expect(roles(model.requests[1]!.messages)).toEqual(['user', 'assistant', 'toolResult', 'user']);
  });

  it('starts another model call for a follow-up when the turn would end', async () => {
    const model = scriptedModel([{ text: 'first answer', delayMs: 20 }, { text: 'second answer' }]);
    const agent = createAgent({ model });
    const done = agent.prompt('question');
    await nextEvent(agent, 'llm.started');
    await agent.followUp('and another thing');
    expect(await done).toMatchObject({ status: 'completed' });
    expect(model.requests).toHaveLength(2);
    expect(roles(agent.session.context())).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('takes the next prompt from a listener that hears the turn end', async () => {
    const agent = createAgent({ model: scriptedModel([{ text: 'first' }, { text: 'second' }]) });
    const next: Array<Promise<unknown>> = [];
    agent.subscribe((e) => {
      if (e.type === 'turn.ended' && next.length === 0) next.push(agent.prompt('and then?'));
    });
    await agent.prompt('hello');
    expect(await next[0]).toMatchObject({ status: 'completed' });
    expect(agent.session.context().map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('refuses a second prompt while a turn runs', async () => {
    const agent = createAgent({ model: scriptedModel([{ text: 'slow', delayMs: 20 }]) });
    const first = agent.prompt('one');
    await expect(agent.prompt('two')).rejects.toBeInstanceOf(AgentBusyError);
    await first;
  });

  it('refuses prompt, steer and followUp once closed, and runs nothing more', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-closed-'));
    const file = join(dir, 'chat.jsonl');
    const session = createSessionLog(await JsonlStore.open(file, { create: true }));
    const model = scriptedModel([{ text: 'first' }, { text: 'never sent' }]);
    const agent = createAgent({ model, session });
    await agent.prompt('one');
    await agent.close();
    const journalBefore = await readFile(journalPathFor(file), 'utf8');
    const entriesBefore = session.entries().length;

    const refused = await agent.prompt('two').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AgentClosedError);
    expect(AgentClosedError.isInstance(refused)).toBe(true);
    expect((refused as AgentClosedError).code).toBe('agent_closed');
    expect((refused as Error).message).toBe('agent.prompt: the agent is closed; make a new one over the session (createAgent or resumeAgent) to go on');
    await expect(agent.steer('steer')).rejects.toThrow(/^agent\.steer: the agent is closed/);
    await expect(agent.followUp('more')).rejects.toThrow(/^agent\.followUp: the agent is closed/);
    expect(model.requests).toHaveLength(1);
    expect(session.entries()).toHaveLength(entriesBefore);
    expect(await readFile(journalPathFor(file), 'utf8')).toBe(journalBefore);
    await session.close();
  });

  it('refuses a prompt made while close() is under way', async () => {
    const agent = createAgent({ model: scriptedModel([{ text: 'slow', delayMs: Infinity }]) });
    const first = agent.prompt('one');
    await nextEvent(agent, 'llm.started');
    const closing = agent.close();
    await expect(agent.prompt('two')).rejects.toBeInstanceOf(AgentClosedError);
    await closing;
    expect(await first).toMatchObject({ status: 'aborted', reason: 'the agent was closed' });
  });

  it('stops after maxIterations tool rounds with one final call that offers no tools', async () => {
    const { echo } = recordingTools();
    const model = scriptedModel([
      { toolCalls: [{ name: 'echo', args: { text: 'a' } }] },
      { toolCalls: [{ name: 'echo', args: { text: 'b' } }] },
      { text: 'summing up' },
    ]);
    const agent = createAgent({ model, tools: [echo], limits: { maxIterations: 2 } });
    expect(await agent.prompt('loop')).toMatchObject({ status: 'max_iterations', iterations: 2 });
    expect(model.requests.map((r) => r.toolNames.length)).toEqual([1, 1, 0]);
  });
});

describe('approvals', () => {
  const setup = (approvalTimeoutMs = 60_000) => {
    const { echo, calls } = recordingTools();
    const model = scriptedModel([
      { toolCalls: [{ id: 'safe', name: 'echo', args: { text: 'free' } }, { id: 'risky', name: 'echo', args: { text: 'ask me' } }] },
      { text: 'done' },
    ]);
    const agent = createAgent({
      model,
      tools: [echo],
      policy: (call) => (call.args.text === 'ask me' ? { decision: 'ask' } : { decision: 'allow' }),
      limits: { approvalTimeoutMs },
    });
    return { agent, calls, model };
  };

  it('parks the turn until the host allows, then runs the batch', async () => {
    const { agent, calls, model } = setup();
    const done = agent.prompt('go');
    const requested = await nextEvent(agent, 'approval.requested');
    expect(requested.calls.map((c) => c.id)).toEqual(['risky']);
    expect(calls).toEqual([]);
    expect(agent.pendingApprovals().map((c) => c.id)).toEqual(['risky']);
    // The request was persisted before the turn parked: the assistant message is in the log.
    expect(agent.session.context().at(-1)).toMatchObject({ role: 'assistant' });
    agent.approve({ toolCallId: 'risky', decision: 'allow' });
    expect(await done).toMatchObject({ status: 'completed' });
    expect(calls.map((c) => c.toolCallId)).toEqual(['safe', 'risky']);
    expect(model.requests[1]!.messages.slice(2)).toMatchObject([{ isError: false }, { isError: false }]);
  });

  it('gives a denied call an error result carrying the rationale', async () => {
    const { agent, calls, model } = setup();
    const done = agent.prompt('go');
    await nextEvent(agent, 'approval.requested');
    expect(() => agent.approve({ toolCallId: 'safe', decision: 'allow' })).toThrow(/not waiting for approval/);
    agent.approve([{ toolCallId: 'risky', decision: 'deny', rationale: 'it writes to production' }]);
    await done;
    expect(calls.map((c) => c.toolCallId)).toEqual(['safe']);
    expect(model.requests[1]!.messages[3]).toMatchObject({
      toolCallId: 'risky',
      isError: true,
      content: [{ type: 'text', text: 'The call to "echo" was denied: it writes to production' }],
    });
  });

  it('throws ApprovalError for a malformed decision, and the turn keeps waiting for a good one', async () => {
    const { agent, calls } = setup();
    const done = agent.prompt('go');
    await nextEvent(agent, 'approval.requested');
    const caught = (() => {
      try {
        agent.approve({ toolCallId: 'risky', decision: 'deny' } as never);
      } catch (error) {
        return error;
      }
    })();
    expect(ApprovalError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'invalid_approval', message: expect.stringMatching(/agent\.approve: decision 0 is not a valid decision[\s\S]*rationale/) });
    expect(() => agent.approve([{ toolCallId: 'risky', decision: 'maybe' } as never])).toThrow(ApprovalError);
    expect(() => agent.approve(undefined as never)).toThrow(ApprovalError);
    expect(agent.pendingApprovals().map((c) => c.id)).toEqual(['risky']);
    agent.approve({ toolCallId: 'risky', decision: 'deny', rationale: 'not now' });
    expect(await done).toMatchObject({ status: 'completed' });
    expect(calls.map((c) => c.toolCallId)).toEqual(['safe']);
  });

  it('denies when nobody decides in time', async () => {
    const { agent, calls, model } = setup(30);
    expect(await agent.prompt('go')).toMatchObject({ status: 'completed' });
    expect(calls.map((c) => c.toolCallId)).toEqual(['safe']);
    expect(model.requests[1]!.messages[3]).toMatchObject({ isError: true, content: [{ text: 'The call to "echo" was denied: No decision was made within 30 ms.' }] });
  });
});

describe('abort reaches whatever the turn is doing', () => {
  const hangingCompactor = (): Compactor<unknown> & { sawAbort: boolean } => {
    const compactor = {
      name: 'hanging',
      sawAbort: false,
      maybeCompact: (acc: never, ctx: { signal?: AbortSignal }) =>
        new Promise<never>((_, reject) =>
          ctx.signal!.addEventListener('abort', () => {
            compactor.sawAbort = true;
            reject(new Error('stopped'));
          }),
        ),
    };
    return compactor as never;
  };

  it('while compacting (steering)', async () => {
    const compactor = hangingCompactor();
    const model = scriptedModel([{ text: 'never asked' }]);
    const agent = createAgent({ model, compactor });
    const done = agent.prompt('hello');
    await nextEvent(agent, 'compaction.started');
    await agent.abort('changed my mind');
    expect(await done).toMatchObject({ status: 'aborted', reason: 'changed my mind' });
    expect(compactor.sawAbort).toBe(true);
    expect(model.requests).toHaveLength(0);
  });

  it('in a later turn: a model that kept the signal of a finished turn, listening or not, is not told', async () => {
    const heard: string[] = [];
    let keptWithoutListening: AbortSignal | undefined;
    const script = scriptedModel([{ text: 'first' }, { text: 'second' }, { text: 'a long answer', partDelayMs: 1_000 }]);
    let turn = 0;
    const model: TillerModel = {
      id: script.id,
      stream(request) {
        const mine = turn++;
        // Turns 0 and 2 listen and never let go; turn 1 does not listen.
        if (mine !== 1) request.signal.addEventListener('abort', () => heard.push(`turn ${mine} aborted`));
        else keptWithoutListening = request.signal;
        return script.stream(request);
      },
    };
    const agent = createAgent({ model });
    expect(await agent.prompt('one')).toMatchObject({ status: 'completed' });
    expect(await agent.prompt('two')).toMatchObject({ status: 'completed' });
    const done = agent.prompt('three');
    await nextEvent(agent, 'text.delta');
    await agent.abort();
    expect(await done).toMatchObject({ status: 'aborted' });
    expect(heard).toEqual(['turn 2 aborted']);
    expect(keptWithoutListening?.aborted).toBe(false);
  });

  it('while the model streams: the partial reply is kept, and the next prompt sends a valid transcript', async () => {
    const model = scriptedModel([{ thinking: 'hmm', text: 'a long answer', chunkSize: 4, partDelayMs: 200 }, { text: 'short now' }]);
    const agent = createAgent({ model });
    const done = agent.prompt('hello');
    await nextEvent(agent, 'text.delta');
    await agent.abort();
    expect(await done).toMatchObject({ status: 'aborted', reason: 'aborted by the host' });
    expect(roles(agent.session.context())).toEqual(['user', 'assistant']);
    expect(agent.session.context().at(-1)).toMatchObject({
      role: 'assistant',
      stopReason: 'aborted',
      content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'a lo' }],
    });
    expect(await agent.prompt('again')).toMatchObject({ status: 'completed' });
    const sent = roles(model.requests.at(-1)!.messages);
    expect(sent).toEqual(['user', 'assistant', 'user']);
  });

  it('while tools run: every running tool gets the signal and the transcript stays valid', async () => {
    const { sleep, calls } = recordingTools();
    const stopped: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'sleep', args: { ms: 10_000 } }, { name: 'sleep', args: { ms: 10_000 } }] }]);
    const agent = createAgent({ model, tools: [sleep] });
    agent.subscribe((e) => e.type === 'tool.finished' && stopped.push(e.toolCallId));
    const done = agent.prompt('sleep');
    await nextEvent(agent, 'tool.started');
    await new Promise((r) => setTimeout(r, 5));
    await agent.abort('too slow');
    expect(await done).toMatchObject({ status: 'aborted', reason: 'too slow' });
    expect(calls).toHaveLength(2);
    const context = agent.session.context();
    expectValidTranscript(context);
    expect(context.slice(2)).toMatchObject([
      { role: 'toolResult', isError: true, content: [{ text: 'The tool did not finish: the turn was aborted (too slow).' }] },
      { role: 'toolResult', isError: true },
    ]);
  });

  it('while an approval is parked', async () => {
    const { echo, calls } = recordingTools();
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', args: { text: 'x' } }] }]);
    const agent = createAgent({ model, tools: [echo], policy: () => ({ decision: 'ask' }) });
    const done = agent.prompt('go');
    await nextEvent(agent, 'approval.requested');
    await agent.abort();
    expect(await done).toMatchObject({ status: 'aborted' });
    expect(agent.pendingApprovals()).toEqual([]);
    expect(calls).toEqual([]);
    expectValidTranscript(agent.session.context());
  });

  it('while waiting to retry the model', async () => {
    const model = scriptedModel([{ error: 'transient', message: 'busy', retryAfterMs: 60_000 }]);
    const agent = createAgent({ model, limits: { retryMaxDelayMs: 60_000 } });
    const done = agent.prompt('hello');
    await nextEvent(agent, 'llm.retry');
    const started = Date.now();
    await agent.abort('no time');
    expect(await done).toMatchObject({ status: 'aborted', reason: 'no time' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(model.requests).toHaveLength(1);
  });

  it('right after prompt(), before the turn has started', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const agent = createAgent({ model });
    const done = agent.prompt('hello');
    await agent.abort('too soon');
    expect(await done).toMatchObject({ status: 'aborted', reason: 'too soon' });
    expect(model.requests).toHaveLength(0);
  });

  it('when idle: nothing happens', async () => {
    const agent = createAgent({ model: scriptedModel([{ text: 'hi' }]) });
    await agent.abort();
    expect(await agent.prompt('hello')).toMatchObject({ status: 'completed' });
  });
});

describe('model failures', () => {
  it('retries transient errors with a retry event each time, honouring Retry-After', async () => {
    const model = scriptedModel([
      { error: 'transient', message: 'rate limited', retryAfterMs: 5 },
      { error: 'transient', message: 'server busy' },
      { text: 'third time lucky' },
    ]);
    const agent = createAgent({ model, limits: { retryBaseDelayMs: 2, retryMaxDelayMs: 10 } });
    const events = recordEvents(agent);
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    const retries = events.filter((e): e is Extract<AgentEvent, { type: 'llm.retry' }> => e.type === 'llm.retry');
    expect(retries.map((r) => [r.attempt, r.error.message])).toEqual([[1, 'rate limited'], [2, 'server busy']]);
    expect(retries[0]!.delayMs).toBe(5);
    expect(retries[1]!.delayMs).toBeGreaterThanOrEqual(2);
    expect(retries[1]!.delayMs).toBeLessThanOrEqual(4);
  });

  it('fails the turn when the retries run out', async () => {
    const model = scriptedModel(Array.from({ length: 3 }, () => ({ error: 'transient' as const, message: '503' })));
    const agent = createAgent({ model, limits: { maxRetries: 2, retryBaseDelayMs: 1 } });
    expect(await agent.prompt('hi')).toMatchObject({ status: 'failed', error: { kind: 'transient', message: '503' } });
    expect(model.requests).toHaveLength(3);
  });

  it('fails at once on a fatal error', async () => {
    const model = scriptedModel([{ error: 'fatal', message: 'invalid api key' }]);
    const agent = createAgent({ model });
    expect(await agent.prompt('hi')).toMatchObject({ status: 'failed', error: { kind: 'fatal', message: 'invalid api key' } });
    expect(model.requests).toHaveLength(1);
  });

  it('recovers from an overflow with one forced compaction and one retry', async () => {
    const forced: boolean[] = [];
    const compactor: Compactor<unknown> = {
      name: 'recording',
      maybeCompact: async (acc, ctx) => {
        forced.push(ctx.force ?? false);
        return { acc, meta: { compacted: false, appended: [] } };
      },
    };
    const model = scriptedModel([{ error: 'overflow', message: 'context_length_exceeded' }, { text: 'fits now' }]);
    const agent = createAgent({ model, compactor });
    expect(await agent.prompt('hi')).toMatchObject({ status: 'completed' });
    expect(forced).toEqual([false, true]);
  });

  it('fails when the context overflows again after the forced compaction', async () => {
    const model = scriptedModel([{ error: 'overflow' }, { error: 'overflow', message: 'still too long' }]);
    const agent = createAgent({ model });
    expect(await agent.prompt('hi')).toMatchObject({ status: 'failed', error: { kind: 'overflow' } });
  });

  it('treats a request estimated above the model window as an overflow without calling the model', async () => {
    const model = scriptedModel([{ text: 'unused' }], { contextWindow: 10 });
    const agent = createAgent({ model });
    const outcome = await agent.prompt('x'.repeat(400));
    expect(outcome).toMatchObject({ status: 'failed', error: { kind: 'overflow' } });
    expect(outcome.status === 'failed' && outcome.error?.message).toMatch(/larger than the 10-token window/);
    expect(model.requests).toHaveLength(0);
  });
});

describe('options', () => {
  it('names the bad option and what was expected', () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ model: { name: 'gpt' } as never })).toThrow(AgentOptionsError);
    expect(() => createAgent({ model: { name: 'gpt' } as never })).toThrow(/expected a Tiller model[\s\S]*at model/);
    // An empty id names no model: before, the agent started and WindowManager refused it at every boundary, so nothing compacted.
    expect(() => createAgent({ model: { ...model, id: '' } })).toThrow(/expected a Tiller model \(an object with a non-empty id and stream\(request\)\)[\s\S]*at model/);
    expect(() => createAgent({ model, limits: { maxToolConcurrency: 0 } })).toThrow(/limits\.maxToolConcurrency/);
    expect(() => createAgent({ model, tools: [{ name: 'raw' }] as never })).toThrow(/made by defineTool[\s\S]*at tools\[0\]/);
    expect(() => createAgent({ model, policy: 'allow' as never })).toThrow(/expected a function[\s\S]*at policy/);
    expect(() => createAgent({ model, colour: 'blue' } as never)).toThrow(/colour/);
  });

  it('says when the compactor needs a context window nobody knows', () => {
    expect(() => createAgent({ model: scriptedModel([], { id: 'nobody/knows' }), compactor: WindowManager({ strategy: 'keepTail' }) })).toThrow(
      /createAgent: compactor "windowManager" needs the model's context window: .*"nobody\/knows".*set model\.contextWindow/,
    );
    expect(() => createAgent({ model: scriptedModel([], { id: 'nobody/knows', contextWindow: 8_000 }), compactor: WindowManager({ strategy: 'keepTail', keepRecentTokens: 1_000 }) })).not.toThrow();
  });

  it('refuses a compactor of its own that needs a window it cannot give, naming the compactor (before: made, and the compactor got no window at every boundary)', () => {
    const own = (over: Partial<Compactor<unknown>>): Compactor<unknown> => ({ name: 'mine', maybeCompact: async (acc) => ({ acc, meta: { compacted: false, appended: [] } }), needsWindow: () => true, ...over });
    const model = scriptedModel([], { id: 'nobody/knows' });
    expect(() => createAgent({ model, compactor: own({}) })).toThrow(
      /^createAgent: compactor "mine" needs the model's context window, and neither the model nor the compactor knows it \(it has no windowFor\); set model\.contextWindow$/,
    );
    for (const [answer, said] of [[Number.NaN, 'NaN'], ['128000', '"128000"'], [0, '0']] as const) {
      expect(() => createAgent({ model, compactor: own({ windowFor: () => answer as number }) }), said).toThrow(
        new RegExp(`^createAgent: compactor "mine": windowFor\\("nobody/knows"\\) must return a positive whole number of tokens, got ${said}$`),
      );
    }
    expect(() => createAgent({ model, compactor: own({ needsWindow: () => { throw new Error('boom'); } }) })).toThrow(/^createAgent: compactor "mine": needsWindow threw: boom$/);
    expect(() => createAgent({ model, compactor: own({ windowFor: () => 32_000 }) })).not.toThrow();
    expect(() => createAgent({ model: scriptedModel([], { id: 'nobody/knows', contextWindow: 8_000 }), compactor: own({}) })).not.toThrow();
  });

  it('refuses a compactor without a name, which every message about it names (before: "the compactor undefined threw")', () => {
    const maybeCompact = async (acc: never) => ({ acc, meta: { compacted: false as const, appended: [] } });
    for (const name of [undefined, 42, '']) {
      expect(() => createAgent({ model: scriptedModel([]), compactor: { name, maybeCompact } as never }), String(name)).toThrow(/expected a Compactor[\s\S]*at compactor/);
    }
    expect(() => createAgent({ model: scriptedModel([]), compactor: { name: 'mine', maybeCompact } as never })).not.toThrow();
  });

  it('refuses two tools with one name', () => {
    const { echo } = recordingTools();
    expect(() => createAgent({ model: scriptedModel([]), tools: [echo, echo] })).toThrow(/duplicate tool name "echo"/);
  });

  it('refuses a message that is not a user message', async () => {
    const agent = createAgent({ model: scriptedModel([]) });
    await expect(agent.prompt({ role: 'assistant', content: [] } as never)).rejects.toThrow(/agent\.prompt: invalid user message/);
  });

  it('refuses an empty prompt and says what a prompt is when given something else; nothing is sent', async () => {
    const model = scriptedModel([{ text: 'unused' }]);
    const agent = createAgent({ model });
    await expect(agent.prompt('')).rejects.toThrow(InvalidMessageError);
    await expect(agent.prompt('  \n')).rejects.toThrow(/agent\.prompt: the message is empty/);
    await expect(agent.prompt({ role: 'user', content: [] })).rejects.toThrow(/the message is empty/);
    await expect(agent.prompt(42 as never)).rejects.toThrow(/agent\.prompt: expected a string or a user message \(\{role: 'user', content\}\), got a number/);
    await expect(agent.steer('')).rejects.toMatchObject({ code: 'invalid_message' });
    expect(model.requests).toHaveLength(0);
    expect(agent.session.path()).toHaveLength(0);
  });
});

describe('when the session log refuses entries', () => {
  it('stops the agent: the running turn\'s prompt rejects, work in flight is aborted, later calls fail', async () => {
    class FailingStore extends MemoryStore {
      appends = 0;
      override async append(entries: readonly Entry[]) {
        if (++this.appends > 1) throw new Error('disk full');
        return super.append(entries);
      }
    }
    const { sleep } = recordingTools();
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ name: 'sleep', args: { ms: 1 } }] }, { text: 'never' }]),
      tools: [sleep],
      session: createSessionLog(new FailingStore()),
    });
    const events = recordEvents(agent);
    await expect(agent.prompt('go')).rejects.toThrow(AgentBrokenError);
    await expect(agent.prompt('again')).rejects.toThrow(/the agent stopped: disk full/);
    expect(events.find((e) => e.type === 'shell.error')).toMatchObject({ message: 'disk full' });
  });

  it('does not report the last outcome as completed once the agent broke', async () => {
    const store = new FaultyStore(new Error('disk full'));
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }, { text: 'two' }]), session: createSessionLog(store) });
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    store.failing = true;
    await expect(agent.prompt('second')).rejects.toThrow(AgentBrokenError);
    await expect(agent.idle()).rejects.toThrow(AgentBrokenError);
  });
});
