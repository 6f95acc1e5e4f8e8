import type { Compactor } from '@tiller/compaction';
import { createSessionLog, MemoryStore } from '@tiller/session';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBrokenError, createAgent, defineTool, memoryJournal, replayJournal, resumeAgent, type Agent, type AgentEvent, type JournalStore } from '../src/index.js';
import { scriptedModel } from '@tiller/testing';
import { nextEvent, recordingTools } from './helpers.js';

/** What a crash leaves: the session entries and journal lines written so far (optionally minus the last entries). */
function afterCrash(agent: Agent, journal: JournalStore & { lines: readonly unknown[] }, lostEntries = 0) {
  const entries = structuredClone(agent.session.entries().slice(0, agent.session.size - lostEntries));
  return { session: createSessionLog(new MemoryStore(entries)), journal: memoryJournal(structuredClone(journal.lines) as never) };
}

/**
 * An agent with a memory journal whose turn ran its tool (echo, call `c1`) and is in its second
 * model call, which never answers: where the crash tests cut the process short.
 */
async function inSecondModelCall() {
  const journal = memoryJournal();
  const { echo } = recordingTools();
  const agent = createAgent({
    model: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'x' } }] }, { text: 'never', delayMs: Infinity }]),
    tools: [echo],
    journal,
  });
  void agent.prompt('go');
  await nextEvent(agent, 'tools.finished');
  await nextEvent(agent, 'llm.started');
  return { agent, journal, echo };
}

const hangs = (name: string, idempotent: boolean, ran: string[]) =>
  defineTool({
    name,
    description: `${name} (hangs the first time)`,
    input: z.object({}),
    idempotent,
    execute: (_args, { signal }) => {
      ran.push(name);
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
    },
  });

const finishes = (name: string, idempotent: boolean, ran: string[]) =>
  defineTool({ name, description: `${name}`, input: z.object({}), idempotent, execute: () => (ran.push(name), `${name} done again`) });

describe('resumeAgent after a crash', () => {
  it('never re-runs a tool call that started and did not finish, unless the tool is idempotent', async () => {
    const before: string[] = [];
    const { echo } = recordingTools();
    const journal = memoryJournal();
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ id: 'e', name: 'echo', args: { text: 'kept' } }, { id: 'w', name: 'write', args: {} }, { id: 'f', name: 'fetch', args: {} }] }]),
      tools: [echo, hangs('write', false, before), hangs('fetch', true, before)],
      journal,
    });
    const started: string[] = [];
    agent.subscribe((e) => e.type === 'tool.started' && started.push(e.toolCallId));
    void agent.prompt('do three things');
    await nextEvent(agent, 'tool.finished');
    await new Promise((r) => setTimeout(r, 5));
    expect(started.sort()).toEqual(['e', 'f', 'w']);
    const crashed = afterCrash(agent, journal);
    await agent.close();

    const after: string[] = [];
    const model = scriptedModel([{ text: 'recovered' }]);
    const events: AgentEvent[] = [];
    const resumed = await resumeAgent({
      model,
      tools: [finishes('echo', false, after), finishes('write', false, after), finishes('fetch', true, after)],
      ...crashed,
      listener: (e) => events.push(e),
    });
    expect(await resumed.idle()).toMatchObject({ status: 'completed', iterations: 1 });
    expect(after).toEqual(['fetch']);
    expect(events.filter((e) => e.type === 'tool.interrupted').map((e) => [(e as { toolCallId: string }).toolCallId, (e as { rerun: boolean }).rerun])).toEqual([
      ['w', false],
      ['f', true],
    ]);
    const results = model.requests[0]!.messages.filter((m) => m.role === 'toolResult');
    expect(results).toMatchObject([
      { toolCallId: 'e', isError: false, content: [{ text: 'kept' }] },
      { toolCallId: 'w', isError: true, content: [{ text: expect.stringMatching(/was interrupted.*not run again/) }] },
      { toolCallId: 'f', isError: false, content: [{ text: 'fetch done again' }] },
    ]);
    expect(resumed.session.path().map((e) => e.id)).toEqual(resumed.snapshot.context.entries.toArray().map((e) => e.id));
  });

  it('tells a refusal once: a call refused before the crash is not refused again after the resume, and stays refused', async () => {
    const before: string[] = [];
    const journal = memoryJournal();
    const agent = createAgent({
      model: scriptedModel([
        {
          toolCalls: [
            { id: 'u', name: 'nope', args: {} },
            { id: 'd', name: 'fetch', args: {} },
            { id: 'w', name: 'write', args: {} },
          ],
        },
      ]),
      tools: [hangs('write', false, before), hangs('fetch', true, before)],
      policy: (call) => (call.name === 'fetch' ? { decision: 'deny', rationale: 'not before the crash' } : { decision: 'allow' }),
      journal,
    });
    const refusedBefore: string[] = [];
    agent.subscribe((e) => e.type === 'tool.refused' && refusedBefore.push(e.toolCallId));
    void agent.prompt('three calls');
    await nextEvent(agent, 'tool.started');
    await new Promise((r) => setTimeout(r, 5));
    expect(refusedBefore).toEqual(['u', 'd']);
    const crashed = afterCrash(agent, journal);
    await agent.close();

    const after: string[] = [];
    const model = scriptedModel([{ text: 'recovered' }]);
    const events: AgentEvent[] = [];
    // The resumed agent's policy would allow the call denied before the crash: the host was told it was refused, so it stays refused.
    const resumed = await resumeAgent({ model, tools: [finishes('write', false, after), finishes('fetch', true, after)], policy: () => ({ decision: 'allow' }), ...crashed, listener: (e) => events.push(e) });
    expect(await resumed.idle()).toMatchObject({ status: 'completed' });
    expect(events.filter((e) => e.type === 'tool.refused')).toEqual([]);
    expect(after).toEqual([]);
    expect(model.requests[0]!.messages.filter((m) => m.role === 'toolResult')).toMatchObject([
      { toolCallId: 'u', isError: true, content: [{ text: expect.stringContaining('Unknown tool "nope"') }] },
      { toolCallId: 'd', isError: true, content: [{ text: expect.stringContaining('not before the crash') }] },
      { toolCallId: 'w', isError: true, content: [{ text: expect.stringMatching(/was interrupted.*not run again/) }] },
    ]);
  });

  it('resumes a version 3 journal, finishes the turn in its segment in version 3 (no refusal lines, a refused call planned again), then journals the next turn in version 4', async () => {
    const journal = memoryJournal();
    const policy = (call: { name: string }) => (call.name === 'fetch' ? ({ decision: 'deny', rationale: 'never' } as const) : ({ decision: 'allow' } as const));
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ id: 'd', name: 'fetch', args: {} }, { id: 'w', name: 'write', args: {} }] }]),
      tools: [hangs('write', true, []), hangs('fetch', true, [])],
      policy,
      journal,
    });
    void agent.prompt('two calls');
    await nextEvent(agent, 'tool.started');
    const crashed = afterCrash(agent, journal);
    await agent.close();
    // What a version 3 shell wrote: the same lines, less the refusal, under a version 3 header.
    const v3 = crashed.journal.lines.filter((l) => l.type !== 'tool.refused').map((l) => (l.type === 'header' ? { ...l, version: 3 } : l));
    const store = memoryJournal(v3 as never);

    const events: AgentEvent[] = [];
    const resumed = await resumeAgent({ model: scriptedModel([{ text: 'recovered' }, { text: 'again' }]), tools: [finishes('write', true, []), finishes('fetch', true, [])], policy, session: crashed.session, journal: store, listener: (e) => events.push(e) });
    expect(await resumed.idle()).toMatchObject({ status: 'completed' });
    // Version 3 kept no refusals: the call is planned again, refused again and told again.
    expect(events.filter((e) => e.type === 'tool.refused').map((e) => e.type === 'tool.refused' && e.toolCallId)).toEqual(['d']);
    expect(store.lines.filter((l) => l.type === 'header').map((l) => l.type === 'header' && l.version)).toEqual([3]);
    expect(store.lines.filter((l) => l.type === 'tool.refused')).toEqual([]);
    expect(replayJournal(structuredClone(store.lines) as never).divergence).toBeNull();

    // The next turn starts a segment of this version: its refusals are journaled again.
    expect(await resumed.prompt('again')).toMatchObject({ status: 'completed' });
    expect(store.lines.filter((l) => l.type === 'header').map((l) => l.type === 'header' && l.version)).toEqual([3, 4]);
    expect(replayJournal(structuredClone(store.lines) as never, { session: resumed.session }).divergence).toBeNull();
  });

  it('keeps a parked approval waiting', async () => {
    const journal = memoryJournal();
    const { echo } = recordingTools();
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ id: 'risky', name: 'echo', args: { text: 'careful' } }] }]),
      tools: [echo],
      policy: () => ({ decision: 'ask' }),
      journal,
    });
    void agent.prompt('go');
    await nextEvent(agent, 'approval.requested');
    const crashed = afterCrash(agent, journal);
    await agent.close();

    const again = recordingTools();
    const resumed = await resumeAgent({ model: scriptedModel([{ text: 'ran it' }]), tools: [again.echo], policy: () => ({ decision: 'ask' }), ...crashed });
    expect(resumed.pendingApprovals().map((c) => c.id)).toEqual(['risky']);
    expect(again.calls).toEqual([]);
    resumed.approve({ toolCallId: 'risky', decision: 'allow' });
    expect(await resumed.idle()).toMatchObject({ status: 'completed' });
    expect(again.calls.map((c) => c.toolCallId)).toEqual(['risky']);
  });

  it('calls the model again when the crash came mid-call, and writes entries the log had not received', async () => {
    const { agent, journal, echo } = await inSecondModelCall();
    // The process died after journaling the tool results but before the log got them.
    const crashed = afterCrash(agent, journal, 1);
    await agent.close();
    expect(crashed.session.size).toBe(2);

    const model = scriptedModel([{ text: 'answer' }]);
    const resumed = await resumeAgent({ model, tools: [echo], ...crashed });
    expect(await resumed.idle()).toMatchObject({ status: 'completed' });
    expect(crashed.session.size).toBe(4);
    expect(model.requests[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
    // The journal continues the same segment: it still replays as one run.
    const lines = await crashed.journal.read();
    expect(lines.filter((l) => l.type === 'header')).toHaveLength(1);
  });

  it('runs the compaction again when the crash came while compacting', async () => {
    const journal = memoryJournal();
    const stuck: Compactor<unknown> = { name: 'stuck', maybeCompact: () => new Promise(() => {}) };
    const agent = createAgent({ model: scriptedModel([]), compactor: stuck, journal });
    void agent.prompt('hello');
    await nextEvent(agent, 'compaction.started');
    const crashed = afterCrash(agent, journal);
    const asked: boolean[] = [];
    const recording: Compactor<unknown> = {
      name: 'recording',
      maybeCompact: async (acc, ctx) => (asked.push(ctx.midRound), { acc, meta: { compacted: false, appended: [] } }),
    };
    const resumed = await resumeAgent({ model: scriptedModel([{ text: 'hi' }]), compactor: recording, ...crashed });
    expect(await resumed.idle()).toMatchObject({ status: 'completed' });
    expect(asked).toEqual([false]);
  });

  it('starts fresh when the journal is empty, and refuses to resume without one', async () => {
    const session = createSessionLog(new MemoryStore());
    const resumed = await resumeAgent({ model: scriptedModel([{ text: 'hi' }]), session, journal: memoryJournal() });
    expect(await resumed.prompt('hello')).toMatchObject({ status: 'completed' });
    await expect(resumeAgent({ model: scriptedModel([]), session } as never)).rejects.toThrow(/session and journal are required/);
  });

  it('hands a failure of the resumed turn to idle(), with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { agent, journal, echo } = await inSecondModelCall();
      const crashed = afterCrash(agent, journal);
      await agent.close();
      class FullDisk extends MemoryStore {
        override async append(): Promise<never> {
          throw new Error('disk full');
        }
      }
      const session = createSessionLog(new FullDisk(crashed.session.entries()));
      const resumed = await resumeAgent({ model: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'echo', args: { text: 'x' } }] }]), tools: [echo], session, journal: crashed.journal });
      await expect(resumed.idle()).rejects.toThrow(AgentBrokenError);
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('refuses a journal that is behind its session (a lost tail), naming both positions', async () => {
    const { agent, journal, echo } = await inSecondModelCall();
    const crashed = afterCrash(agent, journal);
    const leaf = crashed.session.leafId;
    await agent.close();
    // The journal lost everything after the turn's first input: it knows only the prompt.
    const lines = structuredClone(journal.lines);
    const firstInput = lines.findIndex((l) => l.type === 'input');
    const behind = memoryJournal(lines.slice(0, firstInput + 1) as never);
    const userId = crashed.session.path()[0]!.id;
    const model = scriptedModel([{ text: 'unused' }]);
    await expect(resumeAgent({ model, tools: [echo], session: crashed.session, journal: behind })).rejects.toThrow(
      new RegExp(`journal is behind its session: the journal ends at entry ${userId} but the session's leaf is ${leaf}`),
    );
    expect(model.requests).toHaveLength(0);
    expect(crashed.session.leafId).toBe(leaf);
  });
});
