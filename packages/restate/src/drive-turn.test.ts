import { type BlockingEffect, type Entry, type ProgressEvent, start, type TurnEvent } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { type ApprovalWake, driveTurn, dropMessages, type TurnEngine } from './drive-turn.js';
import type { TurnMessage } from './turn-message.js';

/**
 * The driver over an engine kept in memory: each blocking effect is answered by a function of
 * the effect, messages come from a list the test fills, and a parked approval wakes on the next
 * message or, when none is left, on its timeout.
 */
function memoryEngine(answer: (effect: Exclude<BlockingEffect, { type: 'request_approval' }>, n: number) => TurnEvent | Error) {
  const persisted: Entry[] = [];
  const events: ProgressEvent[] = [];
  const inbox: TurnMessage[] = [];
  const performed: string[] = [];
  let clock = 0;
  const now = () => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString();
  /** Messages the engine hands over while the effect with this id is being performed. */
  const during = new Map<string, TurnMessage[]>();
  const engine: TurnEngine = {
    async perform(effect) {
      performed.push(effect.type);
      inbox.push(...(during.get(effect.type) ?? []));
      during.delete(effect.type);
      const result = answer(effect, performed.length);
      if (result instanceof Error) throw result;
      return result;
    },
    async takeMessages() {
      return inbox.splice(0);
    },
    async awaitApproval(): Promise<ApprovalWake> {
      const message = inbox.shift();
      return message ? { kind: 'message', message } : { kind: 'timeout' };
    },
    approvalParked() {},
    persist(entries) {
      for (const entry of entries) if (!persisted.some((p) => p.id === entry.id)) persisted.push(entry);
    },
    emit(event) {
      events.push(event);
    },
    now,
    async cancellation(error) {
      return error instanceof Error && error.message === 'cancelled' ? { reason: 'stopped by the host' } : null;
    },
  };
  return { engine, persisted, events, inbox, during, performed, now };
}

const reply = (effect: { id: string }, at: string, calls: string[] = []): TurnEvent => ({
  type: 'llm.done',
  id: effect.id,
  at,
  message: {
    role: 'assistant',
    content: calls.length ? calls.map((id) => ({ type: 'toolCall' as const, id, name: 'work', args: {} })) : [{ type: 'text', text: 'done' }],
  },
  stopReason: calls.length ? 'toolUse' : 'stop',
});

const turnStart = (at: string): TurnEvent => ({ type: 'turn.start', turnId: 't1', at, message: { role: 'user', content: 'go' } });

/** A model that asks for the given calls once, then answers; tools answer "ok"; no compaction. */
function oneRound(calls: string[], t: { now(): string }) {
  let called = 0;
  return (effect: Exclude<BlockingEffect, { type: 'request_approval' }>): TurnEvent => {
    switch (effect.type) {
      case 'maybe_compact':
        return { type: 'compaction.done', id: effect.id, at: t.now(), meta: { compacted: false }, appended: [] };
      case 'call_llm':
        return reply(effect, t.now(), called++ === 0 ? calls : []);
      case 'run_tools':
        return {
          type: 'tools.done',
          id: effect.id,
          at: t.now(),
          results: effect.calls.map((c) => ({ toolCallId: c.id, content: [{ type: 'text' as const, text: 'ok' }], isError: false })),
        };
    }
  };
}

const texts = (entries: Entry[]) =>
  entries.map((e) => (e.kind === 'message' ? `${e.message.role}:${typeof e.message.content === 'string' ? e.message.content : ''}` : e.kind));

describe('driveTurn', () => {
  it('steps a turn to its end, persisting every entry before the effect that follows it', async () => {
    const clock = { now: () => '' };
    const model = oneRound(['a', 'b'], clock);
    const t = memoryEngine((effect) => model(effect));
    clock.now = t.now;
    const { outcome, snapshot } = await driveTurn({ snapshot: start(), input: turnStart(t.now()), engine: t.engine });
    expect(outcome).toMatchObject({ status: 'completed', iterations: 1 });
    expect(t.performed).toEqual(['maybe_compact', 'call_llm', 'run_tools', 'maybe_compact', 'call_llm']);
    expect(t.persisted.map((e) => e.id)).toEqual(snapshot.context.entries.toArray().map((e) => e.id));
    expect(t.events.at(-1)).toEqual({ type: 'turn.ended', outcome });
  });

  it('steps a steer that arrived during the tool batch before the batch result, so it joins at the boundary after it', async () => {
    const clock = { now: () => '' };
    const model = oneRound(['a'], clock);
    const t = memoryEngine((effect) => model(effect));
    clock.now = t.now;
    t.during.set('run_tools', [{ kind: 'steer', message: { role: 'user', content: 'turn left' }, at: '2026-01-01T00:00:30.000Z' }]);
    const { outcome } = await driveTurn({ snapshot: start(), input: turnStart(t.now()), engine: t.engine });
    expect(outcome.status).toBe('completed');
    expect(texts(t.persisted)).toEqual(['user:go', 'assistant:', 'toolResult:', 'user:turn left', 'assistant:']);
  });

  it('takes a follow-up sent during the last model call before its reply, so the turn goes on', async () => {
    const clock = { now: () => '' };
    const model = oneRound([], clock);
    const t = memoryEngine((effect) => model(effect));
    clock.now = t.now;
    t.during.set('call_llm', [{ kind: 'follow_up', message: { role: 'user', content: 'and then?' }, at: '2026-01-01T00:00:30.000Z' }]);
    const { outcome } = await driveTurn({ snapshot: start(), input: turnStart(t.now()), engine: t.engine });
    expect(outcome.status).toBe('completed');
    expect(t.performed.filter((p) => p === 'call_llm')).toHaveLength(2);
    expect(texts(t.persisted)).toEqual(['user:go', 'assistant:', 'user:and then?', 'assistant:']);
  });

  it('drops a steer that came for a turn cancelled before a boundary took it, with the core note carrying it', async () => {
    const clock = { now: () => '' };
    const model = oneRound(['a'], clock);
    const t = memoryEngine((effect) => (effect.type === 'run_tools' ? new Error('cancelled') : model(effect)));
    clock.now = t.now;
    t.during.set('run_tools', [{ kind: 'steer', message: { role: 'user', content: 'too late' }, at: '2026-01-01T00:00:30.000Z' }]);
    const { outcome } = await driveTurn({ snapshot: start(), input: turnStart(t.now()), engine: t.engine });
    expect(outcome.status).toBe('aborted');
    expect(texts(t.persisted)).not.toContain('user:too late');
    const ignored = t.events.filter((e) => e.type === 'event.ignored');
    expect(ignored).toEqual([
      { type: 'event.ignored', note: { eventType: 'steer', reason: 'the turn ended (aborted) before a boundary took it', at: expect.any(String), message: { role: 'user', content: 'too late' } } },
    ]);
    // The note comes before the turn's end, as the shell's does.
    expect(t.events.indexOf(ignored[0]!)).toBeLessThan(t.events.findIndex((e) => e.type === 'turn.ended'));
  });

  it('dropMessages gives the core note for each message that reached no running turn, in order', async () => {
    const at = '2026-01-01T00:00:00.000Z';
    const messages: TurnMessage[] = [
      { kind: 'steer', message: { role: 'user', content: 'left' }, at },
      { kind: 'approval', decisions: [{ toolCallId: 'a', decision: 'allow' }], at },
      { kind: 'follow_up', message: { role: 'user', content: 'and?' }, at },
    ];
    expect(dropMessages(start(), messages)).toEqual([
      { eventType: 'steer', reason: 'no turn is running', at, message: { role: 'user', content: 'left' } },
      { eventType: 'approval', reason: 'no turn is running', at },
      { eventType: 'follow_up', reason: 'no turn is running', at, message: { role: 'user', content: 'and?' } },
    ]);
    // After a turn, the same: its last snapshot runs no turn.
    const t = memoryEngine(oneRound([], { now: () => at }));
    const { snapshot } = await driveTurn({ snapshot: start(), input: turnStart(at), engine: t.engine });
    expect(dropMessages(snapshot, messages.slice(0, 1))).toHaveLength(1);
  });

  it('waits on an approval until every asked call is decided, ignoring decisions for other calls, and a timeout denies the rest', async () => {
    const clock = { now: () => '' };
    const model = oneRound(['a', 'b'], clock);
    let asked = false;
    const t = memoryEngine((effect) => {
      if (effect.type === 'run_tools' && !asked) {
        asked = true;
        return { type: 'approval.needed', id: effect.id, at: clock.now(), toolCallIds: ['a', 'b'] };
      }
      if (effect.type === 'run_tools') {
        expect(effect.decisions).toEqual([
          { toolCallId: 'a', decision: 'allow' },
          { toolCallId: 'b', decision: 'deny', rationale: 'no decision came before the approval timeout' },
        ]);
      }
      return model(effect);
    });
    clock.now = t.now;
    // Once parked, a decision for a call nobody asked about, then one for `a`; then nothing until the timeout.
    const park = t.engine.approvalParked;
    t.engine.approvalParked = (effect) => {
      if (effect) {
        t.inbox.push(
          { kind: 'approval', decisions: [{ toolCallId: 'zzz', decision: 'allow' }], at: t.now() },
          { kind: 'approval', decisions: [{ toolCallId: 'a', decision: 'allow' }], at: t.now() },
        );
      }
      park(effect);
    };
    const { outcome } = await driveTurn({ snapshot: start(), input: turnStart(t.now()), engine: t.engine });
    expect(outcome).toMatchObject({ status: 'completed', iterations: 1 });
    expect(t.performed.filter((p) => p === 'run_tools')).toHaveLength(2);
  });

  it('drops with a note, naming the call, a decision the batch cannot take: for a call it did not ask about, one that changes a decision, one sent when no approval waits', async () => {
    const clock = { now: () => '' };
    const model = oneRound(['a', 'b'], clock);
    let asked = false;
    let decided: unknown;
    const t = memoryEngine((effect) => {
      if (effect.type === 'run_tools' && !asked) {
        asked = true;
        return { type: 'approval.needed', id: effect.id, at: clock.now(), toolCallIds: ['a', 'b'] };
      }
      if (effect.type === 'run_tools') decided = effect.decisions;
      return model(effect);
    });
    clock.now = t.now;
    const approval = (toolCallId: string, decision: 'allow' | 'deny', at: string): TurnMessage => ({
      kind: 'approval',
      decisions: [decision === 'allow' ? { toolCallId, decision } : { toolCallId, decision, rationale: 'changed my mind' }],
      at,
    });
    const park = t.engine.approvalParked;
    t.engine.approvalParked = (effect) => {
      if (effect) t.inbox.push(approval('zzz', 'allow', 'unknown'), approval('a', 'allow', 'first'), approval('a', 'deny', 'changed'), approval('a', 'allow', 'again'), approval('b', 'allow', 'last'));
      // Sent after the batch was decided: it reaches the turn at its next boundary.
      else t.inbox.push(approval('b', 'deny', 'late'));
      park(effect);
    };
    const { outcome } = await driveTurn({ snapshot: start(), input: turnStart(t.now()), engine: t.engine });
    expect(outcome).toMatchObject({ status: 'completed', iterations: 1 });
    expect(decided).toEqual([
      { toolCallId: 'a', decision: 'allow' },
      { toolCallId: 'b', decision: 'allow' },
    ]);
    const notes = t.events.flatMap((e) => (e.type === 'event.ignored' && e.note.eventType === 'approval' ? [e.note] : []));
    expect(notes).toEqual([
      { eventType: 'approval', at: 'unknown', reason: 'tool call "zzz" is not waiting for approval (waiting: a, b)' },
      { eventType: 'approval', at: 'changed', reason: 'tool call "a" is already decided (allow); a decision cannot be changed' },
      { eventType: 'approval', at: 'late', reason: 'no tool call is waiting for approval' },
    ]);
  });

  it('drops a malformed approval that reaches the turn anyway with a note, and waits on for a good one; the first decision stays', async () => {
    const clock = { now: () => '' };
    const model = oneRound(['a'], clock);
    let asked = false;
    let decided: unknown;
    const t = memoryEngine((effect) => {
      if (effect.type === 'run_tools' && !asked) {
        asked = true;
        return { type: 'approval.needed', id: effect.id, at: clock.now(), toolCallIds: ['a'] };
      }
      if (effect.type === 'run_tools') decided = effect.decisions;
      return model(effect);
    });
    clock.now = t.now;
    // What a client of another version, or a raw call to the inbox, could have sent.
    const junk = [null, 'yes', [null], [{ toolCallId: 'a', decision: 'maybe' }], [{ toolCallId: 'a' }]];
    const park = t.engine.approvalParked;
    t.engine.approvalParked = (effect) => {
      if (effect) {
        for (const decisions of junk) t.inbox.push({ kind: 'approval', decisions, at: 'then' } as never);
        t.inbox.push(
          { kind: 'approval', decisions: [{ toolCallId: 'a', decision: 'allow' }], at: t.now() },
          { kind: 'approval', decisions: [{ toolCallId: 'a', decision: 'deny', rationale: 'changed my mind' }], at: t.now() },
        );
      }
      park(effect);
    };
    const { outcome } = await driveTurn({ snapshot: start(), input: turnStart(t.now()), engine: t.engine });
    expect(outcome).toMatchObject({ status: 'completed', iterations: 1 });
    expect(decided).toEqual([{ toolCallId: 'a', decision: 'allow' }]);
    const notes = t.events.flatMap((e) => (e.type === 'event.ignored' && e.note.eventType === 'approval' ? [e.note] : []));
    expect(notes).toHaveLength(junk.length + 1);
    const junkNotes = notes.slice(0, junk.length);
    expect(junkNotes.every((n) => n.at === 'then' && /^decision 0 is not a valid decision:/.test(n.reason))).toBe(true);
    expect(junkNotes[3]!.reason).toMatch(/at decision/);
    // The deny came after the allow had decided the batch: it reached the turn with no approval waiting.
    expect(notes.at(-1)).toMatchObject({ reason: 'no tool call is waiting for approval' });
  });

  it('ends the turn aborted, with every open call answered, when the engine reports a cancellation', async () => {
    const clock = { now: () => '' };
    const model = oneRound(['a', 'b'], clock);
    const t = memoryEngine((effect) => (effect.type === 'run_tools' ? new Error('cancelled') : model(effect)));
    clock.now = t.now;
    // Sent while the tools ran, before the cancellation: it decides nothing, and says why.
    t.during.set('run_tools', [{ kind: 'approval', decisions: [{ toolCallId: 'a', decision: 'allow' }], at: 'during' }]);
    const { outcome, snapshot } = await driveTurn({ snapshot: start(), input: turnStart(t.now()), engine: t.engine });
    expect(outcome).toMatchObject({ status: 'aborted', reason: 'stopped by the host' });
    expect(t.events.filter((e) => e.type === 'event.ignored')).toEqual([
      { type: 'event.ignored', note: { eventType: 'approval', reason: 'the turn ended (aborted) before it took the decision', at: 'during' } },
    ]);
    const results = t.persisted.flatMap((e) => (e.kind === 'message' && e.message.role === 'toolResult' ? [e.message] : []));
    expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
      ['a', true],
      ['b', true],
    ]);
    expect(snapshot.context.turn).toBeNull();
  });

  it('passes on an error that is not a cancellation: the engine failed, and says so', async () => {
    const clock = { now: () => '' };
    const model = oneRound([], clock);
    const t = memoryEngine((effect) => (effect.type === 'call_llm' ? new Error('the worker lost its disk') : model(effect)));
    clock.now = t.now;
    await expect(driveTurn({ snapshot: start(), input: turnStart(t.now()), engine: t.engine })).rejects.toThrow('the worker lost its disk');
  });
});
