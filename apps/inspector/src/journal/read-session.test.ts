import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonlStore } from '@tiller/session';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession } from './read-session.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-read-session-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const at = '2026-01-01T00:00:00.000Z';
const header = JSON.stringify({ type: 'tiller.session', version: 2, id: 's', createdAt: at });
const user = (id: string, parentId: string | null) => JSON.stringify({ kind: 'message', id, parentId, at, message: { role: 'user', content: id } });

/** The session as the agent would see it: the JSONL store opening the same text from a file. */
async function asTheStoreReadsIt(name: string, text: string) {
  const path = join(dir, name);
  await writeFile(path, text);
  const store = await JsonlStore.open(path, { readOnly: true });
  try {
    return { entries: store.entries, warnings: store.warnings.map((w) => w.message.replace(path, name)) };
  } finally {
    await store.close();
  }
}

describe('readSession reads a damaged session file as @tiller/session does', () => {
  it('keeps an entry whose only fault is an optional field, dropping the field', async () => {
    const assistant = JSON.stringify({
      kind: 'message',
      id: 'b',
      parentId: 'a',
      at,
      // A usage another writer left without totalTokens: optional, so dropped, and the entry kept.
      message: { role: 'assistant', content: [{ type: 'text', text: 'hello' }], usage: { input: 1, output: 2 } },
    });
    const text = `${[header, user('a', null), assistant, user('c', 'b')].join('\n')}\n`;
    const session = readSession(text, 'chat.jsonl');
    const store = await asTheStoreReadsIt('chat.jsonl', text);
    expect(session.entries.map((e) => [e.id, e.parentId])).toEqual([['a', null], ['b', 'a'], ['c', 'b']]);
    expect(session.entries).toEqual(store.entries);
    expect(session.problems.map((p) => p.message)).toEqual(store.warnings);
    expect(session.problems[0]).toMatchObject({ line: 3 });
    expect(session.problems[0]!.message).toMatch(/^chat\.jsonl:3, field message\.usage\.\w+: .+; message\.usage dropped, entry kept$/);
  });

  it('joins the child of a damaged line whose id and parent can still be read to the nearest kept entry', async () => {
    // Line 4 is cut off in the middle (a bad write), but its start still says it was "c", child of "b".
    const damaged = `${user('c', 'b').slice(0, '{"kind":"message","id":"c","parentId":"b",'.length)}\u0000garbage`;
    const text = `${[header, user('a', null), user('b', 'a'), damaged, user('d', 'c'), user('e', 'd')].join('\n')}\n`;
    const session = readSession(text, 'chat.jsonl');
    const store = await asTheStoreReadsIt('chat.jsonl', text);
    expect(session.entries.map((e) => [e.id, e.parentId])).toEqual([['a', null], ['b', 'a'], ['d', 'b'], ['e', 'd']]);
    expect(session.entries).toEqual(store.entries);
    expect(session.problems.map((p) => p.message)).toEqual(store.warnings);
    expect(session.problems.map((p) => p.line)).toEqual([4, 5]);
  });

  it('keeps what a torn last line, a repeated id and a missing parent leave, with one problem each', async () => {
    const text = `${[header, user('a', null), user('b', 'a'), user('x', 'nowhere'), user('b', 'a'), user('c', 'b').slice(0, 30)].join('\n')}`;
    const session = readSession(text, 'chat.jsonl');
    const store = await asTheStoreReadsIt('chat.jsonl', text);
    expect(session.entries.map((e) => [e.id, e.parentId])).toEqual([['a', null], ['x', null], ['b', 'a']]);
    expect(session.entries).toEqual(store.entries);
    expect(session.problems.map((p) => p.message)).toEqual(store.warnings);
    expect(session.problems.map((p) => p.line)).toEqual([3, 4, 6]);
  });

  it('reads a file of format version 1 through the same migration', async () => {
    const v1 = (id: string, parentId: string | null) => JSON.stringify({ type: 'message', id, parentId, timestamp: at, message: { role: 'user', content: id } });
    const text = `${[JSON.stringify({ type: 'tiller.session', version: 1, id: 's', createdAt: at }), v1('a', null), v1('b', 'a')].join('\n')}\n`;
    const session = readSession(text, 'old.jsonl');
    expect(session.entries).toEqual((await asTheStoreReadsIt('old.jsonl', text)).entries);
    expect(session.entries.map((e) => [e.kind, e.id, e.at])).toEqual([['message', 'a', at], ['message', 'b', at]]);
  });

  it('refuses a header it cannot read with the message @tiller/session gives, naming the file, line 1 and the field', () => {
    expect(() => readSession(`${JSON.stringify({ type: 'tiller.session', version: 2, id: { toString: 1 } })}\n${user('a', null)}\n`, 'chat.jsonl')).toThrow(
      'chat.jsonl:1, field id: expected a non-empty session id',
    );
    expect(() => readSession(`${JSON.stringify({ type: 'tiller.session', version: 9, id: 's' })}\n`, 'chat.jsonl')).toThrow(/chat\.jsonl:1, field version: format version 9 is newer/);
  });
});
