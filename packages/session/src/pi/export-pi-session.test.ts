import type { Entry } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { assistantEntry, AT, chain, userEntry } from '../../test/entries.js';
import { contextDifferences, piContext } from '../../test/pi-reference.js';
import { MemoryStore } from '../memory-store.js';
import { createSessionLog } from '../session-log.js';
import { exportPiSession } from './export-pi-session.js';
import { importPiSession } from './import-pi-session.js';

describe("exportPiSession of Tiller's own entries", () => {
  const compaction: Entry = {
    id: 'c',
    parentId: 'e3',
    at: AT,
    kind: 'compaction',
    summary: 'the first four entries',
    firstKeptEntryId: 'e2',
    tokensBefore: 900,
    tokensAfter: 300,
    cleared: { entryIds: ['e2'], placeholder: '[cleared]' },
    details: { readFiles: ['a.ts'], modifiedFiles: [] },
    provenance: { strategy: 'summarize', summarizerModel: 'test/small' },
  };
  const entries: Entry[] = [
    ...chain(4),
    compaction,
    { id: 'note', parentId: 'c', at: AT, kind: 'custom', customType: 'host.note', data: { by: 'host' }, message: { role: 'user', content: 'a host note' } },
    { id: 'state', parentId: 'note', at: AT, kind: 'custom', customType: 'host.state', data: { step: 1 } },
    userEntry('u', 'state'),
    assistantEntry('a', 'u'),
  ];

  it('gives pi a file it reads into the same conversation', () => {
    const text = exportPiSession(entries);
    const log = createSessionLog(new MemoryStore(entries));
    // pi does not clear tool results, and e2 is a user message here, so nothing differs.
    expect(contextDifferences(log.context(), piContext(text))).toEqual([]);
    const header = JSON.parse(text.split('\n')[0]!);
    expect(header).toEqual({ type: 'session', version: 3, id: 'e0', timestamp: AT, cwd: '' });
  });

  it('carries Tiller-only compaction fields through details.tiller and back', () => {
    const again = importPiSession(exportPiSession(entries));
    const back = again.entries.find((e) => e.id === 'c')!;
    const { meta: _stash, ...withoutStash } = back;
    expect(withoutStash).toEqual(compaction);
  });

  it('keeps message entries, custom data and the tree', () => {
    const again = importPiSession(exportPiSession(entries));
    expect(again.entries.map((e) => [e.id, e.parentId])).toEqual(entries.map((e) => [e.id, e.parentId]));
    const messages = again.entries.filter((e) => e.kind === 'message').map(({ meta: _stash, ...e }) => e);
    expect(messages).toEqual(entries.filter((e) => e.kind === 'message'));
    expect(again.entries.find((e) => e.id === 'state')).toEqual(entries.find((e) => e.id === 'state'));
  });
});

describe('exportPiSession of a tool call whose arguments could not be read', () => {
  it('keeps the text the model sent through pi and back', () => {
    const call: Entry = {
      id: 'a',
      parentId: 'u',
      at: AT,
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'echo', args: {}, unparsedArgs: 'not json {{{' }], stopReason: 'toolUse' },
    };
    const again = importPiSession(exportPiSession([userEntry('u', null), call]));
    const back = again.entries.find((e) => e.id === 'a')!;
    expect(back.kind === 'message' && back.message.content).toEqual(call.message.content);
  });
});

describe('exportPiSession of meta', () => {
  it("carries a host's meta beside pi's fields and reads it back into meta", () => {
    const annotated: Entry = { ...userEntry('u', null), meta: { host: { tag: 'reviewed', score: 3 } } };
    const text = exportPiSession([annotated, assistantEntry('a', 'u')]);
    const line = JSON.parse(text.split('\n')[1]!);
    expect(line.tillerMeta).toEqual({ host: { tag: 'reviewed', score: 3 } });
    // pi sees the same conversation: the field is one it does not read.
    expect(piContext(text).map((m) => m.role)).toEqual(['user', 'assistant']);
    const again = importPiSession(text).entries;
    expect(again[0]).toEqual({ ...annotated, meta: { ...annotated.meta, pi: expect.anything() } });
    expect(again[1]!.meta).toEqual({ pi: expect.anything() });
  });

  it('keeps meta beside the pi stash of an imported entry through a second round', () => {
    const first = importPiSession(exportPiSession([userEntry('u', null)])).entries[0]!;
    const annotated: Entry = { ...first, meta: { ...first.meta, note: 'kept' } };
    const again = importPiSession(exportPiSession([annotated])).entries[0]!;
    expect(again).toEqual(annotated);
  });

  it('names the line of a tillerMeta that is not an object', () => {
    const text = exportPiSession([userEntry('u', null)]).replace('"parentId":null', '"parentId":null,"tillerMeta":7');
    expect(() => importPiSession(text, { source: 'x.jsonl' })).toThrow(/x\.jsonl:2, field tillerMeta: expected a JSON object/);
  });
});
