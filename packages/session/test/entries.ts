import type { Entry } from '@tiller/core';

/** Small entry builders for the session tests. Times are fixed: tests compare whole entries. */
export const AT = '2026-01-01T00:00:00.000Z';

export function userEntry(id: string, parentId: string | null, text = `user ${id}`): Entry {
  return { id, parentId, at: AT, kind: 'message', message: { role: 'user', content: text } };
}

export function assistantEntry(id: string, parentId: string | null, text = `assistant ${id}`): Entry {
  return {
    id,
    parentId,
    at: AT,
    kind: 'message',
    message: {
      role: 'assistant',
      content: [{ type: 'text', text }],
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 },
      stopReason: 'stop',
      model: 'test/model',
    },
  };
}

export function compactionEntry(id: string, parentId: string | null, firstKeptEntryId: string, summary = `summary ${id}`): Entry {
  return { id, parentId, at: AT, kind: 'compaction', summary, firstKeptEntryId, tokensBefore: 1000 };
}

/** A chain of alternating user and assistant entries with ids `${prefix}0`, `${prefix}1`, ... */
export function chain(length: number, prefix = 'e', parentId: string | null = null): Entry[] {
  const out: Entry[] = [];
  for (let i = 0; i < length; i++) {
    const parent = i === 0 ? parentId : out[i - 1]!.id;
    out.push(i % 2 === 0 ? userEntry(`${prefix}${i}`, parent) : assistantEntry(`${prefix}${i}`, parent));
  }
  return out;
}
