import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry, Message } from '@tiller/core';
import { createSessionLog, JsonlStore, MemoryStore, type SessionLog } from '@tiller/session';
import { scriptedModel } from '@tiller/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  journalPathFor,
  memoryJournal,
  parseJournalLines,
  replayJournal,
  resumeAgent,
  SessionBusyError,
  ShellError,
  type Agent,
  type AgentEvent,
  type JournalStore,
} from '../src/index.js';
import { nextEvent, recordEvents } from './helpers.js';

/** A message as `role:text`, tool calls and results by their ids. */
function said(message: Message): string {
  if (typeof message.content === 'string') return `${message.role}:${message.content}`;
  const parts = message.content.map((p) => {
    switch (p.type) {
      case 'text':
        return p.text;
      case 'toolCall':
        return `call ${p.id}`;
      default:
        return p.type;
    }
  });
  return `${message.role}:${message.role === 'toolResult' ? `result ${message.toolCallId}` : parts.join(' ')}`;
}
const saidAll = (messages: readonly Message[]) => messages.map(said);
const pathSaid = (session: SessionLog) => session.path().flatMap((e) => (e.kind === 'message' ? [said(e.message)] : [`(${e.kind})`]));

/** Every entry but the first continues the one appended before it: the log has no fork. */
function expectOneChain(entries: readonly Entry[]) {
  for (const [i, entry] of entries.entries()) expect(entry.parentId).toBe(i === 0 ? null : entries[i - 1]!.id);
}

/** What a crash leaves: the session entries (minus the last `lostEntries`, which never reached the log) and the journal lines. */
function afterCrash(agent: Agent, journal: JournalStore & { lines: readonly unknown[] }, lostEntries = 0) {
  const entries = structuredClone(agent.session.entries().slice(0, agent.session.size - lostEntries));
  return { session: createSessionLog(new MemoryStore(entries)), journal: memoryJournal(structuredClone(journal.lines) as never) };
}

describe('an agent follows its session log between turns', () => {
  it('continues from the leaf a host branched to: the model sees that branch, and the old one stays', async () => {
    const model = scriptedModel([{ text: 'a1' }, { text: 'a2' }, { text: 'a3' }, { text: 'a4' }]);
    const journal = memoryJournal();
    const agent = createAgent({ model, journal });
    await agent.prompt('one');
    await agent.prompt('two');
    const firstAnswer = agent.session.path()[1]!;
    agent.session.branch(firstAnswer.id);

    expect(await agent.prompt('three')).toMatchObject({ status: 'completed' });
    expect(saidAll(model.requests[2]!.messages)).toEqual(['user:one', 'assistant:a1', 'user:three']);
    expect(pathSaid(agent.session)).toEqual(['user:one', 'assistant:a1', 'user:three', 'assistant:a3']);
    expect(agent.session.children(firstAnswer.id).map((e) => said((e as Extract<Entry, { kind: 'message' }>).message))).toEqual(['user:two', 'user:three']);
    // The core's snapshot stands where the log does.
    expect(agent.snapshot.context.entries.toArray().map((e) => e.id)).toEqual(agent.session.path().map((e) => e.id));

    agent.session.branch(null);
    await agent.prompt('four');
    expect(saidAll(model.requests[3]!.messages)).toEqual(['user:four']);
    expect(agent.session.roots()).toHaveLength(2);

    // Each move starts a journal segment from where the turn began, and every segment replays.
    expect(journal.lines.filter((l) => l.type === 'header').map((h) => (h as { baseSize: number }).baseSize)).toEqual([0, 2, 0]);
    expect(replayJournal(journal.lines, { session: agent.session }).divergence).toBeNull();
  });

  it('keeps one journal segment while nothing outside the agent changes the log', async () => {
    const journal = memoryJournal();
    const agent = createAgent({ model: scriptedModel([{ text: 'a1' }, { text: 'a2' }, { text: 'a3' }]), journal });
    for (const text of ['one', 'two', 'three']) await agent.prompt(text);
    expect(journal.lines.filter((l) => l.type === 'header')).toHaveLength(1);
    // A branch back to the agent's own leaf changes nothing either.
    agent.session.branch(agent.session.leafId);
    expect(journal.lines.filter((l) => l.type === 'header')).toHaveLength(1);
  });

  it('continues after a label and a name the host set between turns, with no fork in the tree', async () => {
    const model = scriptedModel([{ text: 'a1' }, { text: 'a2' }]);
    const agent = createAgent({ model });
    await agent.prompt('one');
    const answer = agent.session.leafId!;
    const name = await agent.session.setSessionName('Groceries');
    const label = await agent.session.setLabel(answer, 'checkpoint');

    await agent.prompt('two');
    expect(saidAll(model.requests[1]!.messages)).toEqual(['user:one', 'assistant:a1', 'user:two']);
    expect(pathSaid(agent.session)).toEqual(['user:one', 'assistant:a1', '(custom)', '(custom)', 'user:two', 'assistant:a2']);
    expect(agent.session.path().slice(2, 4).map((e) => e.id)).toEqual([name.id, label.id]);
    expectOneChain(agent.session.entries());
    expect(agent.session.sessionName).toBe('Groceries');
    expect(agent.session.labelOf(answer)).toBe('checkpoint');
  });

  it('goes on from its own entries while a turn runs: a label set then sits on a side branch and still labels its entry', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    const wait = defineTool({ name: 'wait', description: 'waits', input: z.object({}), execute: async () => (running(), await gate, 'done') });
    const agent = createAgent({ model: scriptedModel([{ toolCalls: [{ id: 'w', name: 'wait', args: {} }] }, { text: 'after' }]), tools: [wait] });
    const turn = agent.prompt('go');
    await started;
    const call = agent.session.leafId!;
    const label = await agent.session.setLabel(call, 'asked to wait');
    release();
    expect(await turn).toMatchObject({ status: 'completed' });
    expect(pathSaid(agent.session)).toEqual(['user:go', 'assistant:call w', 'toolResult:result w', 'assistant:after']);
    expect(agent.session.children(call).map((e) => e.id)).toContain(label.id);
    expect(agent.session.labelOf(call)).toBe('asked to wait');
  });
});

describe('two agents on one session log', () => {
  it('taking turns, each continues from the other: one chain, both journals replay', async () => {
    const session = createSessionLog(new MemoryStore());
    const modelA = scriptedModel([{ text: 'a1' }, { text: 'a2' }]);
    const modelB = scriptedModel([{ text: 'b1' }]);
    const a = createAgent({ model: modelA, session, journal: memoryJournal() });
    const b = createAgent({ model: modelB, session, journal: memoryJournal() });

    await a.prompt('to a');
    await b.prompt('to b');
    await a.prompt('to a again');
    expect(saidAll(modelB.requests[0]!.messages)).toEqual(['user:to a', 'assistant:a1', 'user:to b']);
    expect(saidAll(modelA.requests[1]!.messages)).toEqual(['user:to a', 'assistant:a1', 'user:to b', 'assistant:b1', 'user:to a again']);
    expectOneChain(session.entries());
    for (const agent of [a, b]) {
      expect(replayJournal(await agent.journal!.read(), { session }).divergence).toBeNull();
    }
  });

  it('on a JSONL session, share the journal file beside it: each turn after the other agent\'s opens a segment, and the file replays', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-shared-'));
    try {
      const file = join(dir, 'chat.jsonl');
      const session = createSessionLog(await JsonlStore.open(file, { create: true }));
      const a = createAgent({ model: scriptedModel([{ text: 'a1' }, { text: 'a2' }]), session });
      const b = createAgent({ model: scriptedModel([{ text: 'b1' }]), session });
      await a.prompt('to a');
      await b.prompt('to b');
      await a.prompt('to a again');
      await a.close();
      await b.close();
      const lines = parseJournalLines(await readFile(journalPathFor(file), 'utf8'));
      expect(lines.filter((l) => l.type === 'header').map((h) => (h as { baseSize: number }).baseSize)).toEqual([0, 2, 4]);
      expect(replayJournal(lines, { session }).divergence).toBeNull();
      await session.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a second turn while one runs on the log (SessionBusyError), and takes it once that turn ended', async () => {
    const session = createSessionLog(new MemoryStore());
    const modelA = scriptedModel([{ text: 'slow', delayMs: Infinity }]);
    const modelB = scriptedModel([{ text: 'b1' }]);
    const a = createAgent({ model: modelA, session });
    const b = createAgent({ model: modelB, session });

    const first = a.prompt('to a');
    await nextEvent(a, 'llm.started');
    const refused = b.prompt('to b');
    await expect(refused).rejects.toThrow(SessionBusyError);
    await expect(refused).rejects.toThrow(/agent\.prompt: another agent's turn is running on this session log/);
    const error = await refused.catch((e: unknown) => e);
    expect(SessionBusyError.isInstance(error) && ShellError.isInstance(error) && error.code).toBe('session_busy');
    // Nothing of the refused turn was sent or written, and the agent is not broken by it.
    expect(modelB.requests).toHaveLength(0);
    expect(pathSaid(session)).toEqual(['user:to a']);
    expect(await b.idle()).toBeNull();

    await a.abort('enough');
    expect(await first).toMatchObject({ status: 'aborted' });
    expect(await b.prompt('to b')).toMatchObject({ status: 'completed' });
    expect(saidAll(modelB.requests[0]!.messages).at(-1)).toBe('user:to b');
    expect(saidAll(modelB.requests[0]!.messages)[0]).toBe('user:to a');
    expectOneChain(session.entries());
  });

  it('holds the log until the turn\'s last entries are written: a prompt in between is refused, never forked off a stale leaf', async () => {
    let onAppend: ((entries: readonly Entry[]) => void) | undefined;
    class SlowStore extends MemoryStore {
      override async append(entries: readonly Entry[]): Promise<void> {
        onAppend?.(entries);
        await new Promise((resolve) => setTimeout(resolve, 10));
        return super.append(entries);
      }
    }
    const session = createSessionLog(new SlowStore());
    const a = createAgent({ model: scriptedModel([{ text: 'a1' }]), session });
    const b = createAgent({ model: scriptedModel([{ text: 'b1' }]), session });
    const inBetween: Array<Promise<unknown>> = [];
    // While the answer that ends a's turn is on its way to the store, b prompts.
    onAppend = (entries) => {
      if (entries.some((e) => e.kind === 'message' && e.message.role === 'assistant')) inBetween.push(b.prompt('to b').catch((e: unknown) => e));
    };
    await a.prompt('to a');
    onAppend = undefined;
    expect(inBetween).toHaveLength(1);
    expect(SessionBusyError.isInstance(await inBetween[0])).toBe(true);
    expect(await b.prompt('to b')).toMatchObject({ status: 'completed' });
    expectOneChain(session.entries());
  });

  it('lets a listener of turn.ended start another agent\'s turn on the log at once', async () => {
    const session = createSessionLog(new MemoryStore());
    const a = createAgent({ model: scriptedModel([{ text: 'a1' }]), session });
    const modelB = scriptedModel([{ text: 'b1' }]);
    const b = createAgent({ model: modelB, session });
    let next: Promise<unknown> | undefined;
    a.subscribe((e) => {
      if (e.type === 'turn.ended') next = b.prompt('to b');
    });
    await a.prompt('to a');
    expect(await next).toMatchObject({ status: 'completed' });
    expect(saidAll(modelB.requests[0]!.messages)).toEqual(['user:to a', 'assistant:a1', 'user:to b']);
    expectOneChain(session.entries());
  });

  it('refuses the second of two prompts made at once', async () => {
    const session = createSessionLog(new MemoryStore());
    const a = createAgent({ model: scriptedModel([{ text: 'a1' }]), session });
    const b = createAgent({ model: scriptedModel([{ text: 'b1' }]), session });
    const [one, two] = await Promise.allSettled([a.prompt('to a'), b.prompt('to b')]);
    expect(one).toMatchObject({ status: 'fulfilled', value: { status: 'completed' } });
    expect(two.status).toBe('rejected');
    expect(SessionBusyError.isInstance((two as PromiseRejectedResult).reason)).toBe(true);
    expect(pathSaid(session)).toEqual(['user:to a', 'assistant:a1']);
  });
});

describe('resume after a host moved the leaf between turns', () => {
  it('does not refuse the journal when the crash came before the moved turn reached the log, and resumes on the branch', async () => {
    const journal = memoryJournal();
    const agent = createAgent({ model: scriptedModel([{ text: 'a1' }, { text: 'a2' }, { text: 'never', delayMs: Infinity }]), journal });
    await agent.prompt('one');
    await agent.prompt('two');
    const firstAnswer = agent.session.path()[1]!.id;
    agent.session.branch(firstAnswer);
    void agent.prompt('three');
    await nextEvent(agent, 'llm.started');
    // The journal holds the turn's start; the crash kept its prompt from the log. A reopened log's leaf is its last line (a2).
    const crashed = afterCrash(agent, journal, 1);
    await agent.close();
    expect(pathSaid(crashed.session)).toEqual(['user:one', 'assistant:a1', 'user:two', 'assistant:a2']);

    const model = scriptedModel([{ text: 'a3' }]);
    const resumed = await resumeAgent({ model, ...crashed });
    expect(await resumed.idle()).toMatchObject({ status: 'completed' });
    expect(saidAll(model.requests[0]!.messages)).toEqual(['user:one', 'assistant:a1', 'user:three']);
    expect(pathSaid(crashed.session)).toEqual(['user:one', 'assistant:a1', 'user:three', 'assistant:a3']);
  });

  it('replays a turn cut mid-tool into the branch it ran on', async () => {
    const ran: string[] = [];
    let running!: () => void;
    const started = new Promise<void>((resolve) => (running = resolve));
    const hang = defineTool({
      name: 'write',
      description: 'hangs',
      input: z.object({}),
      execute: (_args, { signal }) => {
        ran.push('first');
        running();
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
      },
    });
    const journal = memoryJournal();
    const agent = createAgent({ model: scriptedModel([{ text: 'a1' }, { text: 'a2' }, { toolCalls: [{ id: 'w', name: 'write', args: {} }] }]), tools: [hang], journal });
    await agent.prompt('one');
    await agent.prompt('two');
    agent.session.branch(agent.session.path()[1]!.id);
    void agent.prompt('three');
    await started;
    const crashed = afterCrash(agent, journal);
    await agent.close();

    const again = defineTool({ name: 'write', description: 'finishes', input: z.object({}), execute: () => (ran.push('again'), 'written') });
    const model = scriptedModel([{ text: 'a3' }]);
    const resumed = await resumeAgent({ model, tools: [again], ...crashed });
    expect(await resumed.idle()).toMatchObject({ status: 'completed' });
    expect(ran).toEqual(['first']);
    expect(saidAll(model.requests[0]!.messages)).toEqual(['user:one', 'assistant:a1', 'user:three', 'assistant:call w', 'toolResult:result w']);
    expect(pathSaid(crashed.session)).toEqual(['user:one', 'assistant:a1', 'user:three', 'assistant:call w', 'toolResult:result w', 'assistant:a3']);
  });

  it('still refuses a journal that lost its tail after a branch', async () => {
    const journal = memoryJournal();
    const agent = createAgent({ model: scriptedModel([{ text: 'a1' }, { toolCalls: [{ id: 'c', name: 'nope', args: {} }] }, { text: 'never', delayMs: Infinity }]), journal });
    await agent.prompt('one');
    agent.session.branch(null);
    void agent.prompt('two');
    await nextEvent(agent, 'tools.finished');
    await nextEvent(agent, 'llm.started');
    const crashed = afterCrash(agent, journal);
    await agent.close();
    // The journal lost everything after the second turn's first input.
    const lines = structuredClone(journal.lines);
    const start = lines.findLastIndex((l) => l.type === 'header');
    const behind = memoryJournal(lines.slice(0, start + 2) as never);
    const model = scriptedModel([{ text: 'unused' }]);
    await expect(resumeAgent({ model, session: crashed.session, journal: behind })).rejects.toThrow(/journal is behind its session/);
    expect(model.requests).toHaveLength(0);
  });
});

describe("the session log's read warnings reach the host as events", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('one session.warning per warning of a JsonlStore file with a corrupt line, before the first turn starts, once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-warnings-'));
    dirs.push(dir);
    const file = join(dir, 'chat.jsonl');
    const writer = createSessionLog(await JsonlStore.open(file, { create: true }));
    const first = createAgent({ model: scriptedModel([{ text: 'a1' }, { text: 'a2' }]), session: writer, journal: memoryJournal() });
    await first.prompt('one');
    await first.prompt('two');
    await first.close();
    await writer.close();
    // Line 3 (the first answer, after the header and the first prompt) is damaged.
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[2] = '{"id": "broken", not json';
    await writeFile(file, lines.join('\n'));

    const session = createSessionLog(await JsonlStore.open(file));
    expect(session.warnings.map((w) => w.kind)).toEqual(['corrupt_line', 'missing_parent']);
    const model = scriptedModel([{ text: 'a3' }, { text: 'a4' }]);
    const agent = createAgent({ model, session, journal: memoryJournal() });
    const events = recordEvents(agent);
    await agent.prompt('three');
    const warnings = events.filter((e): e is Extract<AgentEvent, { type: 'session.warning' }> => e.type === 'session.warning');
    expect(warnings.map((e) => e.warning)).toEqual([...session.warnings]);
    expect(warnings.every((e) => typeof e.at === 'string' && e.warning.message.includes('chat.jsonl:'))).toBe(true);
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf('session.warning')).toBeLessThan(types.indexOf('turn.started'));

    await agent.prompt('four');
    expect(events.filter((e) => e.type === 'session.warning')).toHaveLength(2);
    await agent.close();
    await session.close();
  });

  it('tells a resumed turn’s listener before the turn carries on', async () => {
    const store = new MemoryStore();
    const journal = memoryJournal();
    const agent = createAgent({ model: scriptedModel([{ text: 'never', delayMs: Infinity }]), journal, session: createSessionLog(store) });
    void agent.prompt('one');
    await nextEvent(agent, 'llm.started');
    const crashed = afterCrash(agent, journal);
    await agent.close();
    const warning = { kind: 'corrupt_line' as const, file: 'chat.jsonl', line: 7, reason: 'not JSON', message: 'chat.jsonl:7: not JSON; line skipped' };
    const damaged = createSessionLog(Object.assign(new MemoryStore(crashed.session.entries().slice()), { warnings: [warning] }));
    const events: AgentEvent[] = [];
    const resumed = await resumeAgent({ model: scriptedModel([{ text: 'a1' }]), session: damaged, journal: crashed.journal, listener: (e) => events.push(e) });
    await resumed.idle();
    const types = events.map((e) => e.type);
    expect(events.filter((e) => e.type === 'session.warning')).toEqual([{ type: 'session.warning', warning, at: expect.any(String) }]);
    expect(types.indexOf('session.warning')).toBeLessThan(types.indexOf('llm.started'));
  });
});
