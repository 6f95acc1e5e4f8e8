import { describe, expect, it } from 'vitest';
import { messageHistory, messagesOnly } from './message-history.js';
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
