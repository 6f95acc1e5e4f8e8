import { expect, it } from 'vitest';
import { outlineSessionText } from './outline-session-text.js';

it('the docs/session.md example outlines a damaged session file from its text', () => {
  const at = '2026-01-01T00:00:00.000Z';
  const user = (id: string, parentId: string | null) => JSON.stringify({ kind: 'message', id, parentId, at, message: { role: 'user', content: id } });
  const text = [
    JSON.stringify({ type: 'tiller.session', version: 2, id: 'chat', createdAt: at }),
    user('a', null),
    `${user('b', 'a').slice(0, 42)}#`,
    user('c', 'b'),
    JSON.stringify({ kind: 'custom', id: 'l', parentId: 'c', at, customType: 'tiller.label', data: { targetId: 'a', label: 'start' } }),
  ].join('\n');
  expect(outlineSessionText(text, 'chat.jsonl')).toEqual([
    'session chat: 3 entries',
    'a <- (root) message [start]',
    'c <- a message',
    'l <- c custom',
    'warning: chat.jsonl:3, field (line): not valid JSON; line skipped',
    'warning: chat.jsonl:4, field parentId: parent "b" was on line 3, which was skipped; joined to "a", the nearest kept entry on its path',
  ]);
  expect(outlineSessionText('{"type":"header"}\n', 'run.journal.jsonl')).toEqual(['run.journal.jsonl is not a session file']);
});

it('docs/session.md quotes the example as it is', async () => {
  // The guide shows the file's code (less its opening comment); a change to one must reach the other.
  const { readFile } = await import('node:fs/promises');
  const guide = await readFile(new URL('../../../docs/session.md', import.meta.url), 'utf8');
  const source = await readFile(new URL('./outline-session-text.ts', import.meta.url), 'utf8');
  const quoted = /From \[`packages\/session\/examples\/outline-session-text\.ts`\][^\n]*\n\n```ts\n([\s\S]*?)```/.exec(guide)?.[1];
  expect(quoted).toBeDefined();
  expect(source.replace(/^(\/\/[^\n]*\n)+/, '')).toBe(quoted);
});
