import { describe, expect, it } from 'vitest';
import { answeredCallsOnly, messageHistory, messagesOnly } from './message-history.js';
import type { PiLine } from './scale-session.js';

const line = (id: string, parentId: string | null, type = 'message'): PiLine => ({ type, id, parentId, message: { role: 'user', content: id } });

describe('messagesOnly', () => {
  it('keeps the messages in order and chains each onto the message before it', () => {
    const path = [line('a', null), line('m', 'a', 'model_change'), line('b', 'm'), line('t', 'b', 'thinking_level_change'), line('c', 't')];
    expect(messagesOnly(path).map((e) => [e.id, e.parentId])).toEqual([
      ['a', null],
      ['b', 'a'],
      ['c', 'b'],
    ]);
  });

  it('roots the chain at the first message when the path starts with something else', () => {
    expect(messagesOnly([line('m', null, 'model_change'), line('a', 'm')])).toEqual([{ ...line('a', null) }]);
  });

  it('refuses a path with a compaction, naming the entry', () => {
    expect(() => messagesOnly([line('a', null), line('k', 'a', 'compaction')])).toThrow(/entry k: a compaction/);
  });
});

describe('messageHistory', () => {
  const path = [line('a', null), line('m', 'a', 'model_change'), line('b', 'm')];

  it('repeats the messages to exactly the count asked for, one chain with fresh ids', () => {
    const history = messageHistory(path, 5);
    expect(history.map((e) => e.type)).toEqual(Array(5).fill('message'));
    expect(history.map((e) => e.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(history.map((e) => e.parentId)).toEqual([null, 'm0', 'm1', 'm2', 'm3']);
    expect(history.map((e) => (e.message as { content: string }).content)).toEqual(['a', 'b', 'a', 'b', 'a']);
  });

  it('gives an empty history for zero', () => {
    expect(messageHistory(path, 0)).toEqual([]);
  });
});

describe('answeredCallsOnly', () => {
  const assistant = (id: string, calls: string[]): PiLine => ({
    type: 'message',
    id,
    parentId: null,
    message: { role: 'assistant', content: [{ type: 'text', text: 'on it' }, ...calls.map((c) => ({ type: 'toolCall', id: c, name: 'read', arguments: {} }))] },
  });
  const result = (id: string, call: string): PiLine => ({ type: 'message', id, parentId: null, message: { role: 'toolResult', toolCallId: call, content: [] } });

  it('drops the calls no result answers (an interrupted turn, a history cut after the call) and keeps the rest as they are', () => {
    const history = [assistant('a', ['c1', 'c2']), result('r1', 'c1'), line('u', null), assistant('b', ['c3'])];
    const kept = answeredCallsOnly(history);
    const parts = (e: PiLine) => (e.message as { content: { type: string; id?: string }[] }).content.map((p) => p.id ?? p.type);
    expect(parts(kept[0]!)).toEqual(['text', 'c1']);
    expect(parts(kept[3]!)).toEqual(['text']);
    expect(kept[1]).toBe(history[1]);
    expect(kept[2]).toBe(history[2]);
    expect(history[0]!.message).toMatchObject({ content: [{}, {}, {}] });
  });

  it('matches a call only to the results right after it, so a repeated call id answered in an earlier copy still counts as open', () => {
    const history = [assistant('a', ['c1']), result('r1', 'c1'), line('u', null), assistant('b', ['c1'])];
    const parts = (e: PiLine) => (e.message as { content: { type: string; id?: string }[] }).content.map((p) => p.id ?? p.type);
    const kept = answeredCallsOnly(history);
    expect(parts(kept[0]!)).toEqual(['text', 'c1']);
    expect(parts(kept[3]!)).toEqual(['text']);
  });
});
