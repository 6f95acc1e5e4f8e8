import { describe, expect, it } from 'vitest';
import type { Entry } from '../schema/entry.js';
import type { Message } from '../schema/message.js';
import { buildContext, collectContext } from './build-context.js';

let n = 0;
const at = '2026-01-01T00:00:00.000Z';
type Draft = Entry extends infer E ? (E extends Entry ? Omit<E, 'id' | 'parentId' | 'at'> & { id?: string | undefined } : never) : never;
function chain(...kinds: Draft[]): Entry[] {
  const out: Entry[] = [];
  for (const k of kinds) {
    const id = k.id ?? `e${++n}`;
    out.push({ ...k, id, parentId: out.at(-1)?.id ?? null, at } as Entry);
  }
  return out;
}
const user = (text: string, id?: string) => ({ kind: 'message' as const, id, message: { role: 'user' as const, content: text } });
const assistant = (text: string, id?: string) => ({
  kind: 'message' as const,
  id,
  message: {
    role: 'assistant' as const,
    content: [
      { type: 'thinking' as const, thinking: `why ${text}` },
      { type: 'text' as const, text },
      { type: 'toolCall' as const, id: `c-${text}`, name: 'read', args: { path: text } },
    ],
  },
});
const result = (callId: string, text: string, id?: string) => ({
  kind: 'message' as const,
  id,
  message: { role: 'toolResult' as const, toolCallId: callId, toolName: 'read', content: [{ type: 'text' as const, text }], isError: false },
});
const texts = (messages: Message[]) =>
  messages.map((m) =>
    typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : p.type)).join('|'),
  );

describe('buildContext', () => {
  it('gives every message of a path without compaction, in order, and skips entries the model never sees', () => {
    const path = chain(user('hi'), { kind: 'custom', customType: 'label', data: { label: 'x' } }, assistant('a'), result('c-a', 'ra'));
    expect(buildContext(path).map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
  });

  it('starts from the latest compaction: its summary, the kept entries, then what follows', () => {
    const path = chain(
      user('old', 'u1'),
      assistant('a1'),
      user('kept', 'k'),
      { kind: 'compaction', summary: 'first', firstKeptEntryId: 'u1', tokensBefore: 10 },
      user('mid', 'm'),
      { kind: 'compaction', summary: 'second', firstKeptEntryId: 'k', tokensBefore: 20 },
      user('after'),
    );
    const context = buildContext(path);
    expect(texts(context)).toEqual([expect.stringContaining('<summary>\nsecond\n</summary>'), 'kept', 'mid', 'after']);
    expect(context[0]!.role).toBe('user');
  });

  it('keeps nothing before the compaction when its firstKeptEntryId is not on the path', () => {
    const path = chain(user('gone'), { kind: 'compaction', summary: 's', firstKeptEntryId: 'elsewhere', tokensBefore: 1 }, user('new'));
    expect(texts(buildContext(path))).toEqual([expect.stringContaining('s'), 'new']);
  });

  it('strips thinking from kept messages when the compaction says so, and only from those', () => {
    const path = chain(
      assistant('kept', 'k'),
      result('c-kept', 'kept output'),
      { kind: 'message', message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'so' }, { type: 'text', text: 'answered' }] } },
      { kind: 'compaction', summary: '', firstKeptEntryId: 'k', tokensBefore: 1, stripThinking: true },
      assistant('later'),
      result('c-later', 'later output'),
    );
    const context = buildContext(path);
    expect(context).toHaveLength(5); // an empty summary adds no message
    expect(texts(context)).toEqual(['kept|toolCall', 'kept output', 'answered', 'thinking|later|toolCall', 'later output']);
  });

  it('keeps the thinking of the latest reply when it called tools, so the tool round goes on with it', () => {
    // A compaction between tool rounds, right after the batch of `now`: the next request carries
    // that batch's results, and Anthropic refuses one whose latest tool-calling reply lost its
    // thinking (the reply must start with it, unchanged). Earlier kept replies still lose theirs.
    const path = chain(
      user('fix it', 'u'),
      assistant('before'),
      result('c-before', 'before output'),
      assistant('now'),
      result('c-now', 'now output'),
      { kind: 'compaction', summary: 'the start', firstKeptEntryId: 'u', tokensBefore: 1, stripThinking: true },
    );
    const context = buildContext(path);
    expect(texts(context).slice(1)).toEqual(['fix it', 'before|toolCall', 'before output', 'thinking|now|toolCall', 'now output']);
    expect(context[4]).toMatchObject({ role: 'assistant', content: [{ type: 'thinking', thinking: 'why now' }, { type: 'text' }, { type: 'toolCall' }] });
  });

  it('keeps what the model sees of the kept entries the same as the turn goes on', () => {
    // Later replies must not change the kept part: the token ledger counts it once, and a
    // provider's prompt cache needs the same prefix request after request.
    const upToCompaction = chain(
      user('fix it', 'u'),
      assistant('now'),
      result('c-now', 'now output'),
      { kind: 'compaction', summary: '', firstKeptEntryId: 'u', tokensBefore: 1, stripThinking: true },
    );
    const later = chain({ kind: 'message', message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'done' }, { type: 'text', text: 'fixed' }] } });
    const before = buildContext(upToCompaction);
    expect(buildContext([...upToCompaction, { ...later[0]!, parentId: upToCompaction.at(-1)!.id }]).slice(0, before.length)).toEqual(before);
    expect(texts(before)).toEqual(['fix it', 'thinking|now|toolCall', 'now output']);
  });

  it('leaves out a kept assistant message that held only thinking, rather than send it with no content', () => {
    // A reply cut off while it thought. Sent with its content stripped to nothing, a provider refuses
    // the request (Anthropic: every message but a final assistant one must have content).
    const thoughtOnly = { kind: 'message' as const, id: 'cut', message: { role: 'assistant' as const, content: [{ type: 'thinking' as const, thinking: 'hmm' }], stopReason: 'length' as const } };
    const path = chain(user('fix it', 'u'), thoughtOnly, user('go on'), { kind: 'compaction', summary: '', firstKeptEntryId: 'u', tokensBefore: 1, stripThinking: true }, assistant('later'));
    const context = buildContext(path);
    expect(context.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'toolResult']);
    expect(context.every((m) => m.content.length > 0)).toBe(true);
  });

  it('replaces cleared tool results with the placeholder, keeping the call and its result paired', () => {
    const path = chain(
      assistant('a', 'a'),
      result('c-a', 'a very long output', 'r'),
      { kind: 'compaction', summary: '', firstKeptEntryId: 'a', tokensBefore: 1, cleared: { entryIds: ['r'], placeholder: '[cleared]' } },
    );
    const [, cleared] = buildContext(path);
    expect(cleared).toMatchObject({ role: 'toolResult', toolCallId: 'c-a', content: [{ type: 'text', text: '[cleared]' }] });
  });

  it('turns branch summaries and custom entries with a message into context messages', () => {
    const path = chain(
      { kind: 'branch_summary', fromId: 'x', summary: 'tried y' },
      { kind: 'custom', customType: 'note', message: { role: 'user', content: 'injected' } },
    );
    expect(texts(buildContext(path))).toEqual([expect.stringContaining('tried y'), 'injected']);
  });

  it('collectContext gives the same messages before repair, in the order the path holds them', () => {
    const path = chain(
      user('hi', 'u1'),
      assistant('a', 'a1'),
      user('steer', 'n1'),
      { kind: 'compaction', summary: 'earlier', firstKeptEntryId: 'u1', tokensBefore: 10 },
      result('c-a', 'ra'),
    );
    expect(texts(collectContext(path))).toEqual([expect.stringContaining('earlier'), 'hi', 'thinking|a|toolCall', 'steer', 'ra']);
    // buildContext moves the steer after the result; nothing is added or dropped.
    expect(texts(buildContext(path))).toEqual([expect.stringContaining('earlier'), 'hi', 'thinking|a|toolCall', 'ra', 'steer']);
  });
});

