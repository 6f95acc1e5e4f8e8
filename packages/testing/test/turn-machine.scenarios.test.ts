import { describe, expect, it } from 'vitest';
import { type Effect, type Entry, type Message, type ProgressEvent, start, step } from '@tiller/core';
import { createTurnDriver } from '../src/turn-driver.js';

const types = (effects: Effect[]) => effects.map((e) => e.type);
const progress = (effects: Effect[]): ProgressEvent[] => effects.flatMap((e) => (e.type === 'emit' ? [e.event] : []));
const persisted = (effects: Effect[]): Entry[] => effects.flatMap((e) => (e.type === 'persist' ? e.entries : []));
const roles = (messages: Iterable<Message>) => [...messages].map((m) => m.role);
const textOf = (m: Message | undefined) =>
  m === undefined ? undefined : typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : '')).join('');

/** A driver already waiting on the first model call. */
function calling(config = {}) {
  const d = createTurnDriver(config);
  d.startTurn('hello', 't');
  d.compactionDone();
  return d;
}

describe('turn start and steering boundaries', () => {
  it('appends the prompt, persists it, then asks about compaction with midRound false', () => {
    const d = createTurnDriver();
    const effects = d.startTurn('hello', 't');
    expect(d.snapshot.value).toBe('steering');
    expect(types(effects)).toEqual(['persist', 'emit', 'emit', 'maybe_compact']);
    expect(persisted(effects)).toMatchObject([{ id: 't.0', parentId: null, kind: 'message', message: { role: 'user', content: 'hello' } }]);
    expect(effects.at(-1)).toEqual({ type: 'maybe_compact', id: 't:compaction:0', midRound: false, reason: 'turn_start', force: false });
  });

  it('moves to calling on compaction.done and hands the model the whole context', () => {
    const d = calling();
    const call = d.pending();
    expect(d.snapshot.value).toBe('calling');
    expect(call).toMatchObject({ type: 'call_llm', id: 't:call:1', final: false });
    expect(call?.type === 'call_llm' && roles(call.context)).toEqual(['user']);
  });

  it('asks again after every tool batch, with midRound true', () => {
    const d = calling();
    d.toolCalls({ id: 'a', name: 'ls' });
    const effects = d.toolsDone();
    expect(d.snapshot.value).toBe('steering');
    expect(effects.at(-1)).toMatchObject({ type: 'maybe_compact', midRound: true, reason: 'tool_batch', force: false });
  });

  it('builds on the session path it starts from, and parents new entries on its last entry', () => {
    const old: Entry = { id: 'old', parentId: null, at: 'x', kind: 'message', message: { role: 'user', content: 'before' } };
    const d = createTurnDriver({ entries: [old] });
    const [entry] = persisted(d.startTurn('now', 't'));
    expect(entry?.parentId).toBe('old');
    d.compactionDone();
    const call = d.pending();
    expect(call?.type === 'call_llm' && call.context.toArray().map(textOf)).toEqual(['before', 'now']);
  });

  it('applies a compaction the compactor appended: the next call sees the summary, not the old messages', () => {
    const d = createTurnDriver();
    d.startTurn('first', 't');
    const last = d.snapshot.context.entries.last()!;
    d.compactionDone({
      meta: { compacted: true, strategy: 'summarize' },
      appended: [{ id: 'c1', parentId: last.id, at: d.now(), kind: 'compaction', summary: 'the gist', firstKeptEntryId: last.id, tokensBefore: 100 }],
    });
    const call = d.pending();
    expect(call?.type === 'call_llm' && call.context.toArray().map(textOf)).toEqual([expect.stringContaining('the gist'), 'first']);
  });

  it('fails the turn when the compactor did not append to the path, leaving the log as it was', () => {
    const d = createTurnDriver();
    d.startTurn('first', 't');
    const effects = d.compactionDone({
      meta: { compacted: true },
      appended: [{ id: 'c1', parentId: 'somewhere-else', at: d.now(), kind: 'compaction', summary: 's', firstKeptEntryId: 't.0', tokensBefore: 1 }],
    });
    expect(d.snapshot.value).toBe('idle');
    expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'failed', reason: expect.stringContaining('may only append') });
    expect(persisted(effects)).toEqual([]);
    expect(d.snapshot.context.entries.length).toBe(1);
  });
});

describe('tool rounds', () => {
  it('runs the calls of a reply, then appends one result per call in the order of the calls', () => {
    const d = calling();
    const run = d.toolCalls({ id: 'a', name: 'ls' }, { id: 'b', name: 'cat', args: { path: 'x' } });
    expect(run.at(-1)).toMatchObject({ type: 'run_tools', id: 't:batch:2', calls: [{ id: 'a' }, { id: 'b' }], decisions: [] });
    const done = d.toolsDone([
      { toolCallId: 'b', content: [{ type: 'text', text: 'B' }], isError: false },
      { toolCallId: 'a', content: [{ type: 'text', text: 'A' }], isError: true },
    ]);
    expect(persisted(done).map((e) => e.kind === 'message' && e.message)).toMatchObject([
      { role: 'toolResult', toolCallId: 'a', toolName: 'ls', isError: true },
      { role: 'toolResult', toolCallId: 'b', toolName: 'cat', isError: false },
    ]);
  });

  it('gives a call the shell did not report an error result saying so', () => {
    const d = calling();
    d.toolCalls({ id: 'a', name: 'ls' }, { id: 'b', name: 'cat' });
    const done = d.toolsDone([{ toolCallId: 'a', content: [], isError: false }]);
    expect(persisted(done)[1]).toMatchObject({ message: { toolCallId: 'b', isError: true, content: [{ text: expect.stringContaining('No result') }] } });
  });

  it('fails the turn on a result for a call that was never made, still closing every call', () => {
    const d = calling();
    d.toolCalls({ id: 'a', name: 'ls' });
    const done = d.toolsDone([{ toolCallId: 'zzz', content: [], isError: false }]);
    expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'failed', reason: expect.stringContaining('unknown tool call "zzz"') });
    expect(persisted(done)).toMatchObject([{ message: { role: 'toolResult', toolCallId: 'a', isError: true } }]);
  });

  it('ends the turn completed when a reply has no tool calls', () => {
    const d = calling();
    const effects = d.reply('done');
    expect(d.snapshot.value).toBe('idle');
    expect(d.snapshot.context.lastOutcome).toEqual({ status: 'completed', stopReason: 'stop', turnId: 't', iterations: 0 });
    expect(progress(effects).at(-1)).toMatchObject({ type: 'turn.ended' });
  });

  it('stores usage and stop reason on the assistant message', () => {
    const d = calling();
    const usage = { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 12 };
    const effects = d.reply('done', { usage });
    expect(persisted(effects)[0]).toMatchObject({ message: { role: 'assistant', usage, stopReason: 'stop' } });
  });
});

describe('the iteration cap', () => {
  it('after maxIterations tool rounds makes one final call without tools and ends max_iterations', () => {
    const d = calling({ maxIterations: 2 });
    for (const id of ['a', 'b']) {
      expect(d.pending()).toMatchObject({ type: 'call_llm', final: false });
      d.toolCalls({ id, name: 'ls' });
      d.toolsDone();
      d.compactionDone();
    }
    expect(d.pending()).toMatchObject({ type: 'call_llm', final: true });
    d.reply('summary of where I got');
    expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'max_iterations', iterations: 2 });
  });

  it('answers tool calls the final reply makes anyway with error results, so the transcript stays valid', () => {
    const d = calling({ maxIterations: 0 });
    const effects = d.toolCalls({ id: 'x', name: 'ls' });
    expect(d.snapshot.context.lastOutcome?.status).toBe('max_iterations');
    expect(persisted(effects).at(-1)).toMatchObject({ message: { role: 'toolResult', toolCallId: 'x', isError: true } });
  });
});

describe('steering and follow-ups', () => {
  it('holds a steer sent during calling until the next boundary, then delivers it with a record', () => {
    const d = calling();
    expect(d.steer('also check the tests')).toEqual([]);
    d.toolCalls({ id: 'a', name: 'ls' });
    d.steer('and be brief');
    d.toolsDone();
    expect(roles(d.snapshot.context.view)).toEqual(['user', 'assistant', 'toolResult']);
    const effects = d.compactionDone();
    expect(textOf(d.snapshot.context.view.at(-2))).toBe('also check the tests');
    expect(textOf(d.snapshot.context.view.at(-1))).toBe('and be brief');
    const delivered = progress(effects).find((e) => e.type === 'messages.delivered');
    expect(delivered).toMatchObject({
      deliveries: [
        { kind: 'steer', receivedIn: 'calling', boundary: 'tool_batch' },
        { kind: 'steer', receivedIn: 'tools', boundary: 'tool_batch' },
      ],
    });
    expect(d.snapshot.context.turn?.deliveries).toHaveLength(2);
  });

  it('continues a turn that would end when a steer is waiting', () => {
    const d = calling();
    d.steer('one more thing');
    const effects = d.reply('done');
    expect(d.snapshot.value).toBe('steering');
    expect(effects.at(-1)).toMatchObject({ type: 'maybe_compact', reason: 'steer', midRound: false });
  });

  it('starts another call with a follow-up when the turn would otherwise end', () => {
    const d = calling();
    d.followUp('now the docs');
    d.toolCalls({ id: 'a', name: 'ls' });
    d.toolsDone();
    d.compactionDone();
    expect(roles(d.snapshot.context.view)).toEqual(['user', 'assistant', 'toolResult']);
    const end = d.reply('listed');
    expect(end.at(-1)).toMatchObject({ type: 'maybe_compact', reason: 'follow_up' });
    d.compactionDone();
    expect(textOf(d.snapshot.context.view.at(-1))).toBe('now the docs');
    expect(d.pending()).toMatchObject({ type: 'call_llm' });
  });

  it('drops a steer or follow-up sent while idle, with a note that carries the message, instead of keeping it for a later turn', () => {
    const d = calling();
    d.reply('done');
    const steer = d.steer('too late');
    const followUp = d.followUp('also too late');
    expect(progress([...steer, ...followUp])).toEqual([
      { type: 'event.ignored', note: expect.objectContaining({ eventType: 'steer', reason: 'no turn is running', message: { role: 'user', content: 'too late' } }) },
      { type: 'event.ignored', note: expect.objectContaining({ eventType: 'follow_up', message: { role: 'user', content: 'also too late' } }) },
    ]);
    expect(d.snapshot.context.queue).toEqual([]);
    d.startTurn('next', 't2');
    d.compactionDone();
    expect([...d.snapshot.context.view].map(textOf)).not.toContain('too late');
  });

  it('drops, with a note each, the steers and follow-ups an aborted turn never reached a boundary for', () => {
    const d = calling();
    d.toolCalls({ id: 'a', name: 'ls' });
    d.steer('look at src');
    d.followUp('then summarise');
    const aborted = d.abort('the user stopped it');
    const notes = progress(aborted).filter((e) => e.type === 'event.ignored');
    expect(notes.map((e) => (e.type === 'event.ignored' ? [e.note.eventType, e.note.message] : []))).toEqual([
      ['steer', { role: 'user', content: 'look at src' }],
      ['follow_up', { role: 'user', content: 'then summarise' }],
    ]);
    expect(progress(aborted).at(-1)).toMatchObject({ type: 'turn.ended', outcome: { status: 'aborted' } });
    expect(d.snapshot.context.queue).toEqual([]);
    d.startTurn('next', 't2');
    d.compactionDone();
    expect([...d.snapshot.context.view].map(textOf)).not.toContain('look at src');
  });
});

describe('a reply that repeats a tool call id', () => {
  it('keeps only the first call with the id, runs each call once, and notes the repeat', () => {
    const d = calling();
    const effects = d.toolCalls({ id: 'a', name: 'write', args: { n: 1 } }, { id: 'a', name: 'write', args: { n: 2 } }, { id: 'b', name: 'ls' });
    expect(effects.at(-1)).toMatchObject({ type: 'run_tools', calls: [{ id: 'a', args: { n: 1 } }, { id: 'b' }] });
    const stored = persisted(effects).at(-1)!;
    expect(stored.kind === 'message' && stored.message.role === 'assistant' && stored.message.content.map((p) => (p.type === 'toolCall' ? p.id : p.type))).toEqual(['a', 'b']);
    expect(progress(effects)).toContainEqual({ type: 'event.ignored', note: expect.objectContaining({ eventType: 'llm.done', reason: expect.stringContaining('repeats tool call id "a"') }) });
    d.toolsDone();
    expect(roles(d.snapshot.context.view)).toEqual(['user', 'assistant', 'toolResult', 'toolResult']);
  });

  it("tells the model, in the first call's result, that the repeats were dropped; other results stay as the tool gave them", () => {
    const d = calling();
    d.toolCalls({ id: 'a', name: 'write', args: { n: 1 } }, { id: 'a', name: 'write', args: { n: 2 } }, { id: 'a', name: 'write', args: { n: 3 } }, { id: 'b', name: 'ls' });
    d.toolsDone([
      { toolCallId: 'a', content: [{ type: 'text', text: 'wrote 1' }], isError: false },
      { toolCallId: 'b', content: [{ type: 'text', text: 'a.ts' }], isError: false },
    ]);
    const [first, second] = [...d.snapshot.context.view].slice(-2);
    expect(first).toMatchObject({ role: 'toolResult', toolCallId: 'a', isError: false });
    const said = textOf(first);
    expect(said).toContain('wrote 1');
    expect(said).toMatch(/2 more tool calls with the id "a".*not run/s);
    expect(second).toMatchObject({ role: 'toolResult', toolCallId: 'b', content: [{ type: 'text', text: 'a.ts' }] });
    // The next call's request carries the note (the model sees it), and the turn goes on as usual.
    d.compactionDone();
    const call = d.pending();
    expect(call?.type === 'call_llm' && textOf([...call.context].at(-2))).toBe(said);
  });
});

describe('an abort while the model streams', () => {
  const partial = {
    role: 'assistant' as const,
    content: [
      { type: 'thinking' as const, thinking: 'the user wants' },
      { type: 'text' as const, text: 'Here is the first half' },
      { type: 'toolCall' as const, id: 'half', name: 'write', args: {} },
    ],
  };

  it('keeps the text and thinking streamed so far as an aborted reply, without the half-streamed tool call', () => {
    const d = calling();
    const effects = d.send({ type: 'abort', at: d.now(), reason: 'stop', partial });
    const reply = persisted(effects).find((e) => e.kind === 'message' && e.message.role === 'assistant');
    expect(reply).toMatchObject({ message: { role: 'assistant', stopReason: 'aborted', content: [{ type: 'thinking' }, { type: 'text', text: 'Here is the first half' }] } });
    expect(roles(d.snapshot.context.view)).toEqual(['user', 'assistant']);
    expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'aborted', reason: 'stop' });
  });

  it('appends nothing when nothing was streamed, and ignores a partial reply outside a model call', () => {
    const d = calling();
    expect(persisted(d.send({ type: 'abort', at: d.now(), partial: { role: 'assistant', content: [{ type: 'text', text: '' }] } }))).toEqual([]);
    const t = calling();
    t.toolCalls({ id: 'a', name: 'ls' });
    const aborted = persisted(t.send({ type: 'abort', at: t.now(), partial }));
    expect(aborted.map((e) => (e.kind === 'message' ? e.message.role : e.kind))).toEqual(['toolResult']);
  });
});

describe('model failures', () => {
  it('compacts with force after an overflow and retries the call once', () => {
    const d = calling();
    const effects = d.llmFailed('overflow', 'prompt is too long');
    expect(effects.at(-1)).toMatchObject({ type: 'maybe_compact', force: true, reason: 'overflow' });
    d.compactionDone();
    expect(d.pending()).toMatchObject({ type: 'call_llm', id: 't:call:3' });
    d.llmFailed('overflow', 'still too long');
    expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'failed', error: { kind: 'overflow' } });
  });

  it('says why the compaction an overflow forced removed nothing, when its meta says (before: "is a compactor configured?" even when one was, and had said why)', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ compacted: false, skipped: 'nothing would leave the context' }, 'removed nothing (nothing would leave the context)'],
      [{ compacted: false, error: 'the summarizer threw: quota exceeded', errorCode: 'summarization_failed' }, 'removed nothing (it failed: the summarizer threw: quota exceeded)'],
      [{ compacted: false }, 'removed nothing (is a compactor configured?)'],
    ];
    for (const [meta, reason] of cases) {
      const d = calling();
      d.llmFailed('overflow', 'prompt is too long');
      d.compactionDone({ meta: meta as never });
      d.llmFailed('overflow', 'still too long');
      expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'failed', reason: `the context overflowed, and the compaction it forced ${reason}: still too long` });
    }
  });

  it('says whether the compaction an overflow forced removed anything', () => {
    const nothing = calling();
    nothing.llmFailed('overflow', 'prompt is too long');
    nothing.compactionDone();
    nothing.llmFailed('overflow', 'still too long');
    expect(nothing.snapshot.context.lastOutcome).toMatchObject({ reason: expect.stringContaining('removed nothing (is a compactor configured?)') });
    const compacted = calling();
    compacted.llmFailed('overflow', 'prompt is too long');
    compacted.compactionDone({ meta: { compacted: true } });
    compacted.llmFailed('overflow', 'still too long');
    expect(compacted.snapshot.context.lastOutcome).toMatchObject({ reason: expect.stringContaining('overflowed again after compaction') });
  });

  it('fails the turn on a fatal or transient failure that reaches the core', () => {
    for (const kind of ['fatal', 'transient'] as const) {
      const d = calling();
      d.llmFailed(kind, 'nope');
      expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'failed', error: { kind, message: 'nope' } });
    }
  });

  it('ends the turn aborted when the model call reports it was aborted', () => {
    const d = calling();
    d.llmFailed('aborted');
    expect(d.snapshot.context.lastOutcome?.status).toBe('aborted');
  });

  it('ends failed on a reply with stop reason error, aborted on one with stop reason aborted', () => {
    const a = calling();
    a.reply('partial', { stopReason: 'error' });
    expect(a.snapshot.context.lastOutcome?.status).toBe('failed');
    const b = calling();
    b.reply([{ type: 'toolCall', id: 'q', name: 'ls', args: {} }], { stopReason: 'aborted' });
    expect(b.snapshot.context.lastOutcome?.status).toBe('aborted');
    expect(roles(b.snapshot.context.view)).toEqual(['user', 'assistant', 'toolResult']);
  });
});

describe('approvals', () => {
  it('parks for approval, then runs the same batch with the decisions, denying calls left undecided', () => {
    const d = calling();
    d.toolCalls({ id: 'a', name: 'rm' }, { id: 'b', name: 'ls' }, { id: 'c', name: 'mv' });
    const ask = d.approvalNeeded(['a', 'c']);
    expect(d.snapshot.value).toEqual({ tools: 'awaitingApproval' });
    expect(ask.at(-1)).toMatchObject({ type: 'request_approval', id: 't:approval:3', calls: [{ id: 'a' }, { id: 'c' }] });
    const run = d.approvalDecided([{ toolCallId: 'a', decision: 'allow' }]);
    expect(d.snapshot.value).toEqual({ tools: 'running' });
    expect(run.at(-1)).toMatchObject({
      type: 'run_tools',
      id: 't:batch:4',
      decisions: [{ toolCallId: 'a', decision: 'allow' }, { toolCallId: 'c', decision: 'deny' }],
    });
  });

  it('fails the turn when a decision names a call nobody asked about', () => {
    const d = calling();
    d.toolCalls({ id: 'a', name: 'rm' });
    d.approvalNeeded(['a']);
    d.approvalDecided([{ toolCallId: 'other', decision: 'allow' }]);
    expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'failed', reason: expect.stringContaining('"other"') });
  });
});

describe('abort', () => {
  it('ends the turn in every state, closing open tool calls with synthetic results', () => {
    const states: Array<[string, (d: ReturnType<typeof createTurnDriver>) => void]> = [
      ['steering', (d) => d.startTurn('x', 't')],
      ['calling', (d) => (d.startTurn('x', 't'), d.compactionDone())],
      ['tools', (d) => (d.startTurn('x', 't'), d.compactionDone(), d.toolCalls({ id: 'a', name: 'ls' }))],
      ['approval', (d) => (d.startTurn('x', 't'), d.compactionDone(), d.toolCalls({ id: 'a', name: 'ls' }), d.approvalNeeded(['a']))],
    ];
    for (const [, reach] of states) {
      const d = createTurnDriver();
      reach(d);
      d.abort('user pressed stop');
      expect(d.snapshot.value).toBe('idle');
      expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'aborted', reason: 'user pressed stop' });
      const view = [...d.snapshot.context.view];
      const calls = view.flatMap((m) => (m.role === 'assistant' ? m.content.filter((p) => p.type === 'toolCall') : []));
      const results = view.filter((m) => m.role === 'toolResult');
      expect(results.length).toBe(calls.length);
    }
  });

  it('ignores the late answer to an aborted call and notes it', () => {
    const d = calling();
    const id = d.pending()!.id;
    d.abort();
    const effects = d.send({ type: 'llm.done', id, at: d.now(), stopReason: 'stop', message: { role: 'assistant', content: [] } });
    expect(persisted(effects)).toEqual([]);
    expect(d.snapshot.context.ignored).toMatchObject({ count: 1, recent: [{ eventType: 'llm.done' }] });
    expect(d.snapshot.context.lastOutcome?.status).toBe('aborted');
  });
});

describe('inputs that do not fit', () => {
  it('ignores a result whose id is not the pending one, without leaving the state', () => {
    const d = calling();
    d.send({ type: 'llm.done', id: 'someone-else', at: d.now(), stopReason: 'stop', message: { role: 'assistant', content: [] } });
    expect(d.snapshot.value).toBe('calling');
    expect(d.snapshot.context.ignored.count).toBe(1);
  });

  it('fails the running turn on an input that fails its schema, naming the field', () => {
    const d = calling();
    d.send({ type: 'llm.done', id: 3, at: d.now() });
    expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'failed', reason: expect.stringContaining('id') });
  });

  it('fails the running turn on a second turn.start', () => {
    const d = calling();
    d.startTurn('again', 'u');
    expect(d.snapshot.context.lastOutcome).toMatchObject({ status: 'failed', turnId: 't', reason: expect.stringContaining('turn.start') });
  });

  it('never throws, whatever it is fed', () => {
    let snapshot = start();
    for (const input of [undefined, null, 1, 'x', [], {}, { type: 'abort' }, { type: 'turn.start', at: 'x' }]) {
      snapshot = step(snapshot, input).snapshot;
    }
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context.ignored.count).toBe(8);
  });

  it('rejects a bad configuration, naming the option', () => {
    expect(() => start({ maxIterations: -1 })).toThrow(/maxIterations/);
  });
});
