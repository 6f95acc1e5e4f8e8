import { describe, expect, it } from 'vitest';
import type { ToolCallPart } from '../schema/message.js';
import type { ToolOutcome } from './events.js';
import { settleInterruptedCalls } from './settle-interrupted-calls.js';

const call = (id: string, name: string): ToolCallPart => ({ type: 'toolCall', id, name, args: {} });
const ok = (toolCallId: string): ToolOutcome => ({ toolCallId, content: [{ type: 'text', text: `done ${toolCallId}` }], isError: false });

describe('settleInterruptedCalls', () => {
  const calls = [call('a', 'write'), call('b', 'write'), call('c', 'read'), call('d', 'write')];
  const result = settleInterruptedCalls({
    calls,
    started: new Set(['a', 'b', 'c']),
    finished: new Map([['a', ok('a')]]),
    isIdempotent: (name) => name === 'read',
  });

  it('keeps a finished call its recorded outcome', () => {
    expect(result.settled.get('a')).toEqual(ok('a'));
  });

  it('answers a started, unfinished call of a tool that is not idempotent with an error, never running it again', () => {
    expect(result.settled.get('b')).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/"write" was interrupted.*not run again/) }] });
    expect(result.interrupted).toContainEqual({ call: calls[1], rerun: false });
  });

  it('runs an interrupted idempotent call again, and a call that never started', () => {
    expect(result.settled.has('c')).toBe(false);
    expect(result.interrupted).toContainEqual({ call: calls[2], rerun: true });
    expect(result.settled.has('d')).toBe(false);
    expect(result.interrupted.map((i) => i.call.id)).toEqual(['b', 'c']);
  });
});
