import { dirname, join } from 'node:path';
import type { Compactor } from '@tiller/compaction';
import type { AssistantMessage, ModelStreamPart, TillerModel, ToolResultMessage } from '@tiller/core';
import { createSessionLog } from '@tiller/session';
import { scriptedModel } from '@tiller/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBrokenError, AgentOptionsError, ApprovalError, createAgent, defineTool, fileJournal, memoryJournal, ToolDefinitionError, type AgentEvent } from '../../src/index.js';
import { FaultyStore, nextEvent, recordEvents, recordingTools } from '../helpers.js';
import { fileSession, sessionProblems, type FileSession } from './fault-helpers.js';

// Code the host hands the agent that goes wrong in ways an Error-throwing test does not reach:
// listeners, inspectors, policies, approvals, stores, compactors and tool schemas that throw on every call or
// throw what is not an Error, and model replies JSON cannot hold. Each through a real agent: the
// turn ends as documented, the host process keeps going, and the agent answers the next prompt
// (or, when the log itself failed, says it stopped). One row each in docs/reliability.md.

let file: FileSession | undefined;
afterEach(async () => {
  await file?.dispose();
  file = undefined;
});

/** Rejections nobody handled while it watched (Node would end a host process for the first). */
function watchUnhandledRejections() {
  const seen: unknown[] = [];
  const onUnhandled = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', onUnhandled);
  return {
    stop() {
      process.off('unhandledRejection', onUnhandled);
      return seen;
    },
  };
}

const shellErrors = (events: AgentEvent[]) => events.filter((e): e is Extract<AgentEvent, { type: 'shell.error' }> => e.type === 'shell.error');

describe('listeners', () => {
  it('a listener that throws on every event: each prompt completes, and the others hear one shell.error per failure', async () => {
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }, { text: 'two' }]) });
    const events = recordEvents(agent);
    let broken: { render(e: AgentEvent): void } | undefined;
    agent.subscribe((e) => broken!.render(e));
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    expect(await agent.prompt('second')).toMatchObject({ status: 'completed' });
    const reports = shellErrors(events);
    // One for every event the listener got but the reports themselves.
    expect(reports.length).toBe(events.length - reports.length);
    expect(reports.every((e) => e.where === 'listener' && /render/.test(e.message))).toBe(true);
  });

  it('a listener that throws what cannot be turned into text is reported as such', async () => {
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }]) });
    const events = recordEvents(agent);
    const unreadable = new Error('never read');
    Object.defineProperty(unreadable, 'message', {
      get() {
        throw new Error('the message getter failed');
      },
    });
    agent.subscribe(() => {
      throw unreadable;
    });
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    expect(shellErrors(events)[0]).toMatchObject({ where: 'listener', message: 'a thrown object that cannot be described' });
  });

  it('an async listener whose promise rejects on every event: each rejection is one shell.error, none is unhandled, and the turn completes', async () => {
    const unhandled = watchUnhandledRejections();
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }]) });
    const events = recordEvents(agent);
    agent.subscribe(async () => {
      throw new Error('webhook is down');
    });
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reports = shellErrors(events);
    expect(reports.length).toBe(events.length - reports.length);
    expect(reports.every((e) => e.where === 'listener' && e.message === 'webhook is down')).toBe(true);
    expect(unhandled.stop()).toEqual([]);
  });

  it('subscribe refuses what is not a function, at once', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    expect(() => agent.subscribe(undefined as never)).toThrow(new TypeError('subscribe: the listener must be a function, got undefined'));
  });
});

describe('the inspector', () => {
  it('one that throws is told to the host as a shell.error, and the turn goes on', async () => {
    const agent = createAgent({
      model: scriptedModel([{ text: 'one' }, { text: 'two' }]),
      inspect: (record) => {
        if (record.kind !== 'actor') throw new Error('inspector socket closed');
      },
    });
    const events = recordEvents(agent);
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    expect(await agent.prompt('second')).toMatchObject({ status: 'completed' });
    expect(shellErrors(events)[0]).toMatchObject({ where: 'inspector', message: 'inspector socket closed' });
  });

  it('one that is async and rejects, as a function or in its methods, is told to the host as a shell.error; none is unhandled', async () => {
    const unhandled = watchUnhandledRejections();
    const asyncFunction = createAgent({
      model: scriptedModel([{ text: 'one' }]),
      inspect: async () => {
        throw new Error('inspector socket closed');
      },
    });
    const rejecting = async () => {
      throw new Error('inspector method rejected');
    };
    const asyncMethods = createAgent({ model: scriptedModel([{ text: 'one' }]), inspect: { actor: rejecting, event: rejecting, snapshot: rejecting } });
    for (const [agent, message] of [[asyncFunction, 'inspector socket closed'], [asyncMethods, 'inspector method rejected']] as const) {
      const events = recordEvents(agent);
      expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(shellErrors(events)[0]).toMatchObject({ where: 'inspector', message });
    }
    expect(unhandled.stop()).toEqual([]);
  });

  it('one that throws on the first report, while the agent is made, is told before the first turn goes on', async () => {
    const agent = createAgent({
      model: scriptedModel([{ text: 'one' }]),
      inspect: () => {
        throw new Error('no inspector at that address');
      },
    });
    const events = recordEvents(agent);
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    const reports = shellErrors(events);
    expect(reports[0]).toMatchObject({ where: 'inspector', message: 'no inspector at that address' });
    expect(events.indexOf(reports[0]!)).toBeLessThan(events.findIndex((e) => e.type === 'turn.started'));
  });
});

describe('the tool policy', () => {
  it('one that throws null denies the call, saying so to the model, and the turn completes', async () => {
    const { echo, calls } = recordingTools();
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'hi' } }] }, { text: 'denied, fine' }]);
    const agent = createAgent({
      model,
      tools: [echo],
      policy: () => {
        throw null;
      },
    });
    expect(await agent.prompt('go')).toMatchObject({ status: 'completed' });
    expect(calls).toEqual([]);
    const result = model.requests[1]!.messages.find((m): m is ToolResultMessage => m.role === 'toolResult')!;
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The call to "echo" was denied: the policy failed: null' }] });
  });
});

describe('approve', () => {
  it('a second decision for a call already decided, or two for one call in one list, throws ApprovalError and changes nothing', async () => {
    const { echo, calls } = recordingTools();
    const model = scriptedModel([{ toolCalls: [{ id: 'a', name: 'echo', args: { text: 'one' } }, { id: 'b', name: 'echo', args: { text: 'two' } }] }, { text: 'done' }]);
    const agent = createAgent({ model, tools: [echo], policy: () => ({ decision: 'ask' }) });
    const done = agent.prompt('go');
    await nextEvent(agent, 'approval.requested');
    agent.approve({ toolCallId: 'a', decision: 'allow' });
    expect(() => agent.approve({ toolCallId: 'a', decision: 'deny', rationale: 'changed my mind' })).toThrow(
      new ApprovalError('agent.approve: tool call "a" is already decided (allow); a decision cannot be changed'),
    );
    expect(() => agent.approve([{ toolCallId: 'b', decision: 'allow' }, { toolCallId: 'b', decision: 'deny', rationale: 'no' }])).toThrow(
      new ApprovalError('agent.approve: tool call "b" is decided twice in one call, differently (decisions 0 and 1)'),
    );
    // The same decision again changes nothing, so it is taken: a retried request, a listener and a button that both allow.
    expect(() => agent.approve({ toolCallId: 'a', decision: 'allow' })).not.toThrow();
    expect(agent.pendingApprovals().map((c) => c.id)).toEqual(['b']);
    agent.approve({ toolCallId: 'b', decision: 'allow' });
    expect(await done).toMatchObject({ status: 'completed' });
    expect(calls.map((c) => c.toolCallId)).toEqual(['a', 'b']);
  });
});

describe('tool input schemas', () => {
  const schemaTool = (name: string, input: z.ZodObject) => defineTool({ name, description: name, input, execute: async () => `${name} ran` });
  const cases: Array<[string, z.ZodObject]> = [
    ['an async refine', z.object({ p: z.string().refine(async () => true) })],
    ['a transform that throws', z.object({ p: z.string().transform(() => { throw new Error('bad transform'); }) })],
    ['a refine that throws null', z.object({ p: z.string().refine(() => { throw null; }) })],
  ];
  it.each(cases)('one with %s fails that call alone, naming the tool; the other call of the batch runs', async (_, input) => {
    const { echo } = recordingTools();
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'checked', args: { p: 'x' } }, { id: 'c2', name: 'echo', args: { text: 'fine' } }] },
      { text: 'read both' },
    ]);
    const agent = createAgent({ model, tools: [schemaTool('checked', input), echo] });
    expect(await agent.prompt('go')).toMatchObject({ status: 'completed' });
    const results = model.requests[1]!.messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(results[0]).toMatchObject({ toolCallId: 'c1', isError: true });
    expect((results[0]!.content[0] as { text: string }).text).toMatch(/^Tool "checked" did not run: its input schema failed while checking the arguments: /);
    expect(results[1]).toMatchObject({ toolCallId: 'c2', isError: false, content: [{ type: 'text', text: 'fine' }] });
  });
});

describe('stores and journals that throw what is not an Error', () => {
  it('a session store that rejects with null stops the agent as an Error would: every caller hears AgentBrokenError, nothing waits forever', async () => {
    const store = new FaultyStore(null);
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }, { text: 'two' }]), session: createSessionLog(store) });
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    store.failing = true;
    await expect(agent.prompt('second')).rejects.toThrow(AgentBrokenError);
    await expect(agent.prompt('third')).rejects.toThrow(/the agent stopped: null/);
    await expect(agent.idle()).rejects.toThrow(AgentBrokenError);
  });

  it('a journal that rejects with null does the same', async () => {
    const journal = memoryJournal();
    let failing = false;
    const append = journal.append.bind(journal);
    journal.append = (lines) => (failing ? Promise.reject(null) : append(lines));
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }, { text: 'two' }]), journal });
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    failing = true;
    await expect(agent.prompt('second')).rejects.toThrow(AgentBrokenError);
    await expect(agent.prompt('third')).rejects.toThrow(AgentBrokenError);
  });
});

describe('stores and journals that never answer', () => {
  const never = () => new Promise<never>(() => undefined);

  it('a journal whose append never settles: after limits.writeTimeoutMs every caller hears AgentBrokenError, and abort and close settle', async () => {
    const journal = memoryJournal();
    let hanging = false;
    const append = journal.append.bind(journal);
    journal.append = (lines) => (hanging ? never() : append(lines));
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }, { text: 'two' }]), journal, limits: { writeTimeoutMs: 50 } });
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    hanging = true;
    const second = agent.prompt('second');
    const aborted = agent.abort('the host gave up');
    await expect(second).rejects.toThrow(new AgentBrokenError("the agent stopped: the journal's append did not settle within 50 ms (limits.writeTimeoutMs); whether it was written is not known"));
    await expect(aborted).rejects.toThrow(AgentBrokenError);
    await expect(agent.prompt('third')).rejects.toThrow(AgentBrokenError);
    await agent.close();
  });

  it('a session store whose append never settles: the same', async () => {
    const store = new FaultyStore(null);
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }, { text: 'two' }]), session: createSessionLog(store), limits: { writeTimeoutMs: 50 } });
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    store.append = never;
    await expect(agent.prompt('second')).rejects.toThrow(/the agent stopped: the session store's append did not settle within 50 ms \(limits\.writeTimeoutMs\)/);
    await expect(agent.idle()).rejects.toThrow(AgentBrokenError);
    await agent.close();
  });

  it('a journal whose close never settles: close() rejects saying so after the limit, and the event iterators end all the same', async () => {
    const journal = memoryJournal();
    journal.close = never;
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }]), journal, limits: { writeTimeoutMs: 50 } });
    const iterated = (async () => {
      let count = 0;
      for await (const _ of agent.events()) count++;
      return count;
    })();
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    await expect(agent.close()).rejects.toThrow("the journal's close did not settle within 50 ms (limits.writeTimeoutMs)");
    expect(await iterated).toBeGreaterThan(0);
  });
});

describe('closing an agent that stopped', () => {
  it('resolves and closes its journal, after a store failure left a turn unfinished', async () => {
    const store = new FaultyStore(new Error('disk full'));
    const journal = memoryJournal();
    let journalClosed = false;
    journal.close = async () => {
      journalClosed = true;
    };
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }, { text: 'two' }]), session: createSessionLog(store), journal });
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    store.failing = true;
    await expect(agent.prompt('second')).rejects.toThrow('the agent stopped: disk full');
    await agent.close();
    expect(journalClosed).toBe(true);
  });
});

describe('compactors', () => {
  it('one that says it compacted but lists nothing it dropped: the result is discarded, the host told, and every turn still completes', async () => {
    const sloppy: Compactor = { name: 'sloppy', maybeCompact: async (acc) => ({ acc, meta: { compacted: true, appended: [] } as never }) };
    const agent = createAgent({ model: scriptedModel([{ text: 'one' }, { text: 'two' }]), compactor: sloppy });
    const events = recordEvents(agent);
    expect(await agent.prompt('first')).toMatchObject({ status: 'completed' });
    expect(await agent.prompt('second')).toMatchObject({ status: 'completed' });
    expect(shellErrors(events)[0]).toMatchObject({ where: 'compaction', message: expect.stringMatching(/the compactor sloppy broke its contract: meta\.dropped is not an array of entries/) });
  });
});

describe('model replies JSON cannot hold', () => {
  const replyWith = (args: Record<string, unknown>): TillerModel => {
    let calls = 0;
    return {
      id: 'test/odd-args',
      async *stream(): AsyncGenerator<ModelStreamPart> {
        const message: AssistantMessage =
          calls++ === 0
            ? { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'echo', args }] }
            : { role: 'assistant', content: [{ type: 'text', text: 'a plain answer' }] };
        const stopReason = message.content[0]!.type === 'toolCall' ? 'toolUse' : 'stop';
        yield { type: 'done', message: { ...message, stopReason }, stopReason };
      },
    };
  };
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;

  it.each([
    ['a BigInt', { n: 10n }, /cannot be stored as JSON: Do not know how to serialize a BigInt/],
    ['a cycle', cycle, /cannot be stored as JSON: Converting circular structure to JSON/],
  ])('tool call arguments holding %s fail the turn before anything is written; the agent answers the next prompt', async (_, args, reason) => {
    file = await fileSession();
    const { echo, calls } = recordingTools();
    const agent = createAgent({ model: replyWith(args), tools: [echo], session: file.session, journal: memoryJournal() });
    const outcome = await agent.prompt('go');
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(outcome)).toMatch(reason);
    expect(calls).toEqual([]);
    expect(await agent.prompt('again')).toMatchObject({ status: 'completed' });
    expect(await sessionProblems(agent, { file, unansweredPrompts: 1 })).toEqual([]);
  });
});

describe('model usage JSON cannot hold', () => {
  it('a BigInt in the usage fails the turn the same way, with a journal on a file', async () => {
    file = await fileSession();
    const { echo } = recordingTools();
    const usage = { input: 1n, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
    const model: TillerModel = {
      id: 'test/odd-usage',
      async *stream(): AsyncGenerator<ModelStreamPart> {
        const message: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: 'an answer' }], stopReason: 'stop' };
        yield { type: 'done', message, stopReason: 'stop', usage: usage as never };
      },
    };
    const agent = createAgent({ model, tools: [echo], session: file.session, journal: fileJournal(`${file.path}.journal`) });
    const outcome = await agent.prompt('go');
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(outcome)).toMatch(/cannot be stored as JSON: Do not know how to serialize a BigInt/);
  });
});

describe('model replies that are no assistant message', () => {
  const replying = (message: unknown, usage?: unknown): TillerModel => {
    let calls = 0;
    return {
      id: 'test/odd-reply',
      async *stream(): AsyncGenerator<ModelStreamPart> {
        if (calls++ > 0) {
          yield { type: 'done', message: { role: 'assistant', content: [{ type: 'text', text: 'a plain answer' }], stopReason: 'stop' }, stopReason: 'stop' };
          return;
        }
        yield { type: 'done', message, stopReason: 'stop', ...(usage === undefined ? {} : { usage }) } as never;
      },
    };
  };

  // What a model written by hand gets wrong, where TypeScript's types are not there to say so.
  it.each([
    ['a usage without the cache counts', { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }, { input: 1, output: 1, totalTokens: 2 }, 'usage.cacheRead: expected a whole number of tokens'],
    ['content that is a string', { role: 'assistant', content: 'hi' }, undefined, 'content: expected an array of parts'],
    ['a tool call without an id', { role: 'assistant', content: [{ type: 'toolCall', name: 'echo', args: {} }] }, undefined, 'content[0].id'],
    ['a reply in the role of the user', { role: 'user', content: 'hi' }, undefined, 'role: expected "assistant"'],
  ])('%s fails the turn naming the model and the field; nothing is written and the next prompt completes', async (_, message, usage, field) => {
    file = await fileSession();
    const { echo, calls } = recordingTools();
    const agent = createAgent({ model: replying(message, usage), tools: [echo], session: file.session, journal: memoryJournal() });
    const outcome = await agent.prompt('go');
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(outcome.status === 'failed' && outcome.reason).toContain('the reply of test/odd-reply is not an assistant message Tiller can keep: ');
    expect(outcome.status === 'failed' && outcome.reason).toContain(field);
    expect(calls).toEqual([]);
    expect(await agent.prompt('again')).toMatchObject({ status: 'completed' });
    expect(await sessionProblems(agent, { file, unansweredPrompts: 1 })).toEqual([]);
  });
});

describe('model streams that do not speak the stream protocol', () => {
  const streaming = (stream: () => unknown): TillerModel => {
    let calls = 0;
    return {
      id: 'test/odd-stream',
      stream: () => {
        if (calls++ > 0) return scriptedModel([{ text: 'a plain answer' }]).stream({ messages: [], tools: [], signal: new AbortController().signal });
        return stream() as AsyncIterable<ModelStreamPart>;
      },
    };
  };
  const parts = (...values: unknown[]) => () =>
    (async function* () {
      for (const value of values) yield value;
    })();

  // What a model written by hand in JavaScript gets wrong. Before, the turn failed with a bare
  // TypeError ("Cannot read properties of null (reading 'type')"), or a delta that was no string
  // reached every subscriber and, on an abort, the session as the text "undefined42".
  it.each([
    ['stream() returns undefined', () => undefined, 'stream(request) returned undefined, not an async iterable of stream parts'],
    ['stream() is an async function', async () => parts()(), 'stream(request) returned a Promise, not an async iterable of stream parts'],
    // Before: the rejection was left unhandled, and Node ended the process (a durable worker too).
    ['stream() is an async function that rejects', async () => Promise.reject(new Error('no API key')), 'stream(request) returned a Promise, not an async iterable of stream parts'],
    ['stream() returns an array', () => [], 'stream(request) returned an array, not an async iterable of stream parts'],
    ['a part that is null', parts(null), 'part 1 is null, not an object'],
    ['a part of a type the protocol does not have', parts({ type: 'text-delta', delta: 'hi' }, { type: 'finish' }), 'part 2 has type "finish", which is none of text-delta, thinking-delta, toolcall-delta, done'],
    ['a text delta whose delta is no string', parts({ type: 'text-delta', delta: 'hi' }, { type: 'text-delta', text: 'there' }), 'part 2 (text-delta): delta: expected a string, got undefined'],
    ['a tool call delta without its call id', parts({ type: 'toolcall-delta', toolName: 'echo', delta: '{' }), 'part 1 (toolcall-delta): toolCallId: expected a string, got undefined'],
    ['a done part without a message', parts({ type: 'done', stopReason: 'stop' }), 'part 1 (done): message: expected an object, got undefined'],
  ])('%s: the call fails naming the model and what is wrong; subscribers hear no junk; the next prompt completes', async (_, stream, problem) => {
    file = await fileSession();
    const agent = createAgent({ model: streaming(stream), session: file.session, journal: memoryJournal() });
    const deltas: unknown[] = [];
    agent.subscribe((event) => {
      if (event.type === 'text.delta' || event.type === 'toolcall.delta') deltas.push(event.delta);
    });
    const outcome = await agent.prompt('go');
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(outcome.status === 'failed' && outcome.reason).toContain(`the model call failed (fatal): test/odd-stream: ${problem}`);
    expect(deltas.every((delta) => typeof delta === 'string')).toBe(true);
    expect(await agent.prompt('again')).toMatchObject({ status: 'completed' });
    expect(await sessionProblems(agent, { file, unansweredPrompts: 1 })).toEqual([]);
  });

  it('a delta that is no string, then an abort: the kept partial reply holds only the text the model sent', async () => {
    file = await fileSession();
    let release = () => {};
    const model: TillerModel = {
      id: 'test/odd-stream',
      async *stream() {
        yield { type: 'text-delta', delta: 'hi' };
        yield { type: 'text-delta', delta: 42 } as never;
        await new Promise<void>((resolve) => (release = resolve));
      },
    };
    const agent = createAgent({ model, session: file.session, journal: memoryJournal() });
    const turn = agent.prompt('go');
    setTimeout(() => void agent.abort(), 20);
    const outcome = await turn;
    release();
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(file.session.context())).not.toContain('42');
  });
});

describe('model streams', () => {
  it('one whose return() throws once its reply is read: the reply stands and the turn completes', async () => {
    const model: TillerModel = {
      id: 'test/bad-return',
      stream: () => ({
        [Symbol.asyncIterator]() {
          let given = false;
          return {
            async next(): Promise<IteratorResult<ModelStreamPart>> {
              if (given) return { done: true, value: undefined };
              given = true;
              const message: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: 'the answer' }], stopReason: 'stop' };
              return { done: false, value: { type: 'done', message, stopReason: 'stop' } };
            },
            return(): never {
              throw new Error('return failed');
            },
          };
        },
      }),
    };
    const agent = createAgent({ model });
    expect(await agent.prompt('go')).toMatchObject({ status: 'completed', stopReason: 'stop' });
    expect(agent.session.path().at(-1)).toMatchObject({ message: { role: 'assistant', content: [{ type: 'text', text: 'the answer' }] } });
  });
});

describe('time limits a timer cannot wait', () => {
  it('are refused at configuration, naming the limit', () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ model, limits: { toolTimeoutMs: 2 ** 31 } })).toThrow(AgentOptionsError);
    expect(() => createAgent({ model, limits: { approvalTimeoutMs: 2 ** 31 } })).toThrow(/expected at most 2147483647 ms[\s\S]*at limits\.approvalTimeoutMs/);
    expect(() => createAgent({ model, limits: { retryMaxDelayMs: 3e9 } })).toThrow(/retryMaxDelayMs/);
    expect(() => defineTool({ name: 't', description: 'd', input: z.object({}), execute: () => 'x', timeoutMs: 3e9 })).toThrow(ToolDefinitionError);
    expect(() => createAgent({ model, limits: { toolTimeoutMs: 2 ** 31 - 1 } })).not.toThrow();
  });
});

describe('a journal file where none can be written', () => {
  it('is refused when the journal is made, not at the first write mid-turn', async () => {
    const session = await fileSession();
    file = session;
    const folder = dirname(session.path);
    expect(() => fileJournal(join(folder, 'no-such-folder', 'x.journal.jsonl'))).toThrow(new AgentOptionsError(`fileJournal(${join(folder, 'no-such-folder', 'x.journal.jsonl')}): the folder ${join(folder, 'no-such-folder')} does not exist; create it first`));
    expect(() => fileJournal(folder)).toThrow(/that is a folder; give the path of a file in it/);
    expect(() => fileJournal(join(session.path, 'x.journal.jsonl'))).toThrow(`a file stands where a folder of ${session.path} should be`);
    expect(() => fileJournal(join(folder, 'new.journal.jsonl'))).not.toThrow();
  });
});
