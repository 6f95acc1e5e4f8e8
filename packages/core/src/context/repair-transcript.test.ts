import { describe, expect, it } from 'vitest';
import type { Entry } from '../schema/entry.js';
import type { AssistantMessage, Message, ToolResultMessage } from '../schema/message.js';
import { buildContext } from './build-context.js';
import { LOST_CALL_NOTE, LOST_RESULT_NOTE, repairTranscript } from './repair-transcript.js';

const user = (text: string): Message => ({ role: 'user', content: text });
const calls = (...ids: string[]): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text: 'let me look' }, ...ids.map((id) => ({ type: 'toolCall' as const, id, name: 'read', args: { path: id } }))],
});
const result = (id: string, text = `content of ${id}`): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: id,
  toolName: 'read',
  content: [{ type: 'text', text }],
  isError: false,
});
const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

/** Every tool call answered exactly once, right after its message, and no result without its call. */
function isValid(messages: readonly Message[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    const ids = m.content.flatMap((p) => (p.type === 'toolCall' ? [p.id] : []));
    const results = [];
    for (let j = i + 1; j < messages.length && messages[j]!.role === 'toolResult'; j++) results.push((messages[j] as ToolResultMessage).toolCallId);
    if ([...results].sort().join() !== [...ids].sort().join()) return false;
  }
  return messages.every((m, i) => m.role !== 'toolResult' || messages.slice(0, i).some((p) => p.role === 'assistant'));
}

describe('repairTranscript', () => {
  it('gives a valid transcript back as it is: the same array, no repairs', () => {
    const messages = [user('hi'), calls('a', 'b'), result('b'), result('a'), answer('done'), user('more')];
    const repaired = repairTranscript(messages);
    expect(repaired.messages).toBe(messages);
    expect(repaired.repairs).toEqual([]);
  });

  it('a result whose call was lost (the context begins with it) becomes a note the model can read', () => {
    const repaired = repairTranscript([result('a', 'the file says hello'), answer('ok'), user('next')]);
    expect(isValid(repaired.messages)).toBe(true);
    expect(repaired.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: `${LOST_CALL_NOTE} Tool read (call a) returned:` },
        { type: 'text', text: 'the file says hello' },
      ],
    });
    expect(repaired.repairs).toEqual([{ kind: 'orphaned_result', index: 0, toolCallId: 'a', toolName: 'read' }]);
  });

  it('a call without its result gets an error result saying so, before whatever comes next', () => {
    const repaired = repairTranscript([user('hi'), calls('a', 'b'), result('a'), user('are you there?')]);
    expect(isValid(repaired.messages)).toBe(true);
    expect(repaired.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'user']);
    expect(repaired.messages[3]).toEqual({ role: 'toolResult', toolCallId: 'b', toolName: 'read', content: [{ type: 'text', text: LOST_RESULT_NOTE }], isError: true });
    expect(repaired.repairs).toEqual([{ kind: 'unanswered_call', index: 1, toolCallId: 'b', toolName: 'read' }]);
  });

  it('calls left open at the end are answered too: the next model call must not start from them', () => {
    const repaired = repairTranscript([user('hi'), calls('a')]);
    expect(repaired.messages.at(-1)).toMatchObject({ role: 'toolResult', toolCallId: 'a', isError: true });
  });

  it("openBatch: 'leave' keeps a batch open at the end as it stands, and still repairs what lies before it", () => {
    const running = [user('hi'), calls('a', 'b'), result('a')];
    expect(repairTranscript(running, { openBatch: 'leave' }).messages).toBe(running);
    const damaged = [result('lost'), user('hi'), calls('a')];
    const repaired = repairTranscript(damaged, { openBatch: 'leave' });
    expect(repaired.repairs.map((r) => r.kind)).toEqual(['orphaned_result']);
    expect(repaired.messages.at(-1)).toBe(damaged[2]);
  });

  it('a host message between a call and its result waits until the batch is answered: the pair is kept', () => {
    const steer = user('also check the tests');
    const repaired = repairTranscript([user('hi'), calls('a', 'b'), result('a'), steer, result('b'), answer('done')]);
    expect(isValid(repaired.messages)).toBe(true);
    expect(repaired.messages).toEqual([user('hi'), calls('a', 'b'), result('a'), result('b'), steer, answer('done')]);
    expect(repaired.repairs).toEqual([{ kind: 'moved_message', index: 3, toolCallId: 'b', toolName: 'read' }]);
  });

  it('host messages that came before any result, or whose batch never got its results, keep their order', () => {
    const first = user('first');
    const second = user('second');
    const repaired = repairTranscript([calls('a', 'b'), first, result('b'), second, result('a'), user('after')]);
    expect(isValid(repaired.messages)).toBe(true);
    expect(repaired.messages).toEqual([calls('a', 'b'), result('b'), result('a'), first, second, user('after')]);
    expect(repaired.repairs.map((r) => [r.kind, r.index])).toEqual([
      ['moved_message', 1],
      ['moved_message', 3],
    ]);
    // No result came after the message: nothing moved past it; the lost result is said as before.
    const unanswered = repairTranscript([calls('a'), first, calls('c'), result('c')]);
    expect(unanswered.messages.map((m) => m.role)).toEqual(['assistant', 'toolResult', 'user', 'assistant', 'toolResult']);
    expect(unanswered.repairs.map((r) => r.kind)).toEqual(['unanswered_call']);
    // A batch a message followed is not the open end of a running turn: it is settled even with 'leave'.
    const branched = repairTranscript([user('hi'), calls('a'), user('another way')], { openBatch: 'leave' });
    expect(isValid(branched.messages)).toBe(true);
    expect(branched.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'user']);
  });

  it('a second result for one call, or a result after another message, is a lost call too', () => {
    const repaired = repairTranscript([calls('a'), result('a'), result('a', 'again'), answer('x'), result('a', 'late')]);
    expect(isValid(repaired.messages)).toBe(true);
    expect(repaired.repairs.map((r) => [r.kind, r.index])).toEqual([
      ['orphaned_result', 2],
      ['orphaned_result', 4],
    ]);
    // Nothing the file held is dropped: both texts are still in the context.
    expect(JSON.stringify(repaired.messages)).toContain('again');
    expect(JSON.stringify(repaired.messages)).toContain('late');
  });
});

/** A path of message entries, each the child of the one before, by id. */
function chainOf(messages: Record<string, Message>): Entry[] {
  const at = '2026-01-01T00:00:00.000Z';
  let parentId: string | null = null;
  return Object.entries(messages).map(([id, message]): Entry => {
    const entry: Entry = { id, parentId, at, kind: 'message', message };
    parentId = id;
    return entry;
  });
}

describe('buildContext repairs the transcript of a damaged path', () => {
  it('a path whose first entries were lost (it starts with a tool result) gives a valid context', () => {
    const path = chainOf({ r: result('lost-call'), a: answer('ok'), c: calls('x'), u: user('hello?') });
    const context = buildContext(path);
    expect(isValid(context)).toBe(true);
    expect(context.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant', 'toolResult', 'user']);
  });

  it('a steering message the host logged while the tools ran follows the results of the batch, each result whole', () => {
    const path = chainOf({ u1: user('read both files'), c: calls('a', 'b'), ra: result('a'), s: user('and then stop'), rb: result('b') });
    const context = buildContext(path);
    // What providers need: the assistant's calls, then all their results, then the user message.
    expect(isValid(context)).toBe(true);
    expect(context.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'user']);
    expect(context.slice(2, 4)).toEqual([result('a'), result('b')]);
    expect(context[4]).toEqual(user('and then stop'));
    // The log is not touched: the path still holds the message where the host put it.
    expect(path.map((e) => e.id)).toEqual(['u1', 'c', 'ra', 's', 'rb']);
  });
});
