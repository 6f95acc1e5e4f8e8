import { buildContext } from '@tiller/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistantEntry, AT, chain, compactionEntry, userEntry } from '../test/entries.js';
import { CustomTypes } from './custom-types.js';
import { AppendError, SessionStoreError, UnknownEntryError } from './errors/index.js';
import { MemoryStore } from './memory-store.js';
import { createSessionLog } from './session-log.js';

describe('createSessionLog: appends', () => {
  it('appends a chain and moves the leaf to its last entry', async () => {
    const log = createSessionLog(new MemoryStore());
    expect(log.leafId).toBeNull();
    await log.append(chain(4));
    expect(log.leafId).toBe('e3');
    expect(log.path().map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(log.size).toBe(4);
  });

  it('refuses a duplicate id, naming the entry, and writes nothing of the batch', async () => {
    const store = new MemoryStore();
    const log = createSessionLog(store);
    await log.append(chain(2));
    const batch = [userEntry('x', 'e1'), userEntry('e0', 'x')];
    await expect(log.append(batch)).rejects.toMatchObject({ name: 'AppendError', code: 'duplicate_id', entryId: 'e0' });
    expect(store.entries.map((e) => e.id)).toEqual(['e0', 'e1']);
    expect(log.has('x')).toBe(false);
    expect(log.leafId).toBe('e1');
  });

  it('refuses a duplicate inside one batch and an unknown parent', async () => {
    const log = createSessionLog(new MemoryStore());
    await expect(log.append([userEntry('a', null), userEntry('a', null)])).rejects.toMatchObject({ code: 'duplicate_id', entryId: 'a' });
    const error = await log.append([userEntry('b', 'ghost')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppendError);
    expect((error as AppendError).message).toBe('entry b: its parent ghost is not in the session');
    expect(log.size).toBe(0);
  });

  it('refuses an invalid entry, naming the field', async () => {
    const log = createSessionLog(new MemoryStore());
    const bad = { ...userEntry('a', null), message: { role: 'user', content: 5 } } as never;
    await expect(log.append([bad])).rejects.toThrow(/entry a \(batch position 0\), field message\.content/);
  });

  it('names the field of a refused append as a read warning names it, with the reason', async () => {
    const log = createSessionLog(new MemoryStore([userEntry('a', null)]));
    const call = { type: 'toolCall', id: '', name: 'read_file', args: {} };
    const bad = { ...assistantEntry('b', 'a'), message: { role: 'assistant', content: [{ type: 'text', text: 'reading' }, call] } } as never;
    await expect(log.append([userEntry('c', 'a'), bad])).rejects.toMatchObject({
      code: 'invalid_entry',
      entryId: 'b',
      message: 'entry b (batch position 1), field message.content[1].id: expected a non-empty string',
    });
    expect(log.has('c')).toBe(false);
  });

  it('runs appends in call order, so a batch may name a parent from the previous unawaited one', async () => {
    const log = createSessionLog(new MemoryStore());
    const first = log.append([userEntry('a', null)]);
    const second = log.append([assistantEntry('b', 'a')]);
    const failed = log.append([userEntry('a', null)]);
    const third = log.append([userEntry('c', 'b')]);
    await Promise.all([first, second, third]);
    await expect(failed).rejects.toMatchObject({ code: 'duplicate_id' });
    expect(log.path().map((e) => e.id)).toEqual(['a', 'b', 'c']);
  });

  it('refuses appends after close', async () => {
    const log = createSessionLog(new MemoryStore());
    await log.close();
    await expect(log.append([userEntry('a', null)])).rejects.toMatchObject({ code: 'closed' });
  });
});

describe('createSessionLog: branches', () => {
  it('branches from an earlier entry, keeping the old branch', async () => {
    const log = createSessionLog(new MemoryStore());
    await log.append(chain(4));
    log.branch('e1');
    expect(log.leafId).toBe('e1');
    await log.append([userEntry('b2', 'e1'), assistantEntry('b3', 'b2')]);
    expect(log.path().map((e) => e.id)).toEqual(['e0', 'e1', 'b2', 'b3']);
    expect(log.path('e3').map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3']);
    expect(log.children('e1').map((e) => e.id)).toEqual(['e2', 'b2']);
    expect(log.children('e3')).toEqual([]);
    expect(log.context('e3')).toEqual(buildContext(log.path('e3')));
  });

  it('branch(null) starts a second root; path(null) is empty', async () => {
    const log = createSessionLog(new MemoryStore());
    await log.append(chain(2));
    log.branch(null);
    expect(log.path()).toEqual([]);
    expect(log.context()).toEqual([]);
    await log.append([userEntry('r', null)]);
    expect(log.roots().map((e) => e.id)).toEqual(['e0', 'r']);
  });

  it('names an unknown entry', async () => {
    const log = createSessionLog(new MemoryStore());
    expect(() => log.branch('nope')).toThrow(UnknownEntryError);
    expect(() => log.path('nope')).toThrow('no entry with id "nope" in this session');
    expect(() => log.children('nope')).toThrow(UnknownEntryError);
  });

  it('lists the tree with labels, children in append order', async () => {
    const log = createSessionLog(new MemoryStore());
    await log.append(chain(3));
    log.branch('e0');
    await log.append([assistantEntry('x1', 'e0')]);
    await log.setLabel('e0', 'start', { id: 'l1', at: AT });
    const tree = log.tree();
    expect(tree).toHaveLength(1);
    const root = tree[0]!;
    expect(root.label).toBe('start');
    expect(root.children.map((n) => n.entry.id)).toEqual(['e1', 'x1']);
    expect(root.children[1]!.children.map((n) => n.entry.id)).toEqual(['l1']);
  });

  it('gives the path the parents say, through any mix of appends, branches and batches off the leaf', async () => {
    // Each op: append a chain at the leaf, branch to an earlier entry (or null), or append a
    // batch whose first parent is some earlier entry rather than the leaf.
    const op = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), length: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('branch' as const), pick: fc.option(fc.nat(), { nil: null }) }),
      fc.record({ kind: fc.constant('off-leaf' as const), pick: fc.nat(), length: fc.integer({ min: 1, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const log = createSessionLog(new MemoryStore());
        const parents = new Map<string, string | null>();
        const expectedPath = (id: string | null) => {
          const ids: string[] = [];
          for (let at = id; at !== null; at = parents.get(at)!) ids.unshift(at);
          return ids;
        };
        for (const [n, o] of ops.entries()) {
          const ids = [...parents.keys()];
          if (o.kind === 'branch') {
            log.branch(o.pick === null || ids.length === 0 ? null : ids[o.pick % ids.length]!);
          } else {
            const from = o.kind === 'append' || ids.length === 0 ? log.leafId : ids[o.pick % ids.length]!;
            const batch = chain(o.length, `op${n}-`, from);
            for (const entry of batch) parents.set(entry.id, entry.parentId);
            await log.append(batch);
          }
          const path = log.path();
          expect(path.map((e) => e.id)).toEqual(expectedPath(log.leafId));
          path.pop(); // a caller's copy: changing it must not change the log's next answer
          expect(log.path().map((e) => e.id)).toEqual(expectedPath(log.leafId));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('builds the context of the path, compaction included', async () => {
    const log = createSessionLog(new MemoryStore());
    await log.append([...chain(6), compactionEntry('c', 'e5', 'e4'), userEntry('after', 'c')]);
    const context = log.context();
    expect(context).toEqual(buildContext(log.path()));
    expect(context).toHaveLength(4);
  });
});

describe('createSessionLog: labels and name', () => {
  it('sets, changes and clears labels through custom entries at the leaf', async () => {
    const store = new MemoryStore();
    const log = createSessionLog(store);
    await log.append(chain(2));
    const set = await log.setLabel('e0', 'first', { id: 'l1', at: AT });
    expect(set).toMatchObject({ kind: 'custom', customType: CustomTypes.label, parentId: 'e1', data: { targetId: 'e0', label: 'first' } });
    expect(log.leafId).toBe('l1');
    expect(log.labelOf('e0')).toBe('first');
    await log.setLabel('e0', undefined);
    expect(log.labelOf('e0')).toBeUndefined();
    await expect(log.setLabel('nope', 'x')).rejects.toThrow(UnknownEntryError);
    // Labels are invisible to the model.
    expect(log.context()).toEqual(buildContext(chain(2)));
  });

  it('reads labels back from a reopened store; clearing a label on a log that never had one changes nothing', async () => {
    const store = new MemoryStore();
    const log = createSessionLog(store);
    await log.append(chain(2));
    await log.setLabel('e1', undefined, { id: 'l0', at: AT });
    expect(log.labelOf('e1')).toBeUndefined();
    expect(log.tree()[0]!.label).toBeUndefined();
    await log.setLabel('e0', 'start', { id: 'l1', at: AT });
    const reopened = createSessionLog(store);
    expect(reopened.labelOf('e0')).toBe('start');
    expect(reopened.tree()[0]!.label).toBe('start');
  });

  it('keeps the latest session name, also after reopening the store', async () => {
    const store = new MemoryStore();
    const log = createSessionLog(store);
    expect(log.sessionName).toBeUndefined();
    await log.setSessionName('  refactor  ');
    await log.setSessionName('the refactor');
    expect(log.sessionName).toBe('the refactor');
    expect(createSessionLog(store).sessionName).toBe('the refactor');
    await log.setSessionName(' ');
    expect(log.sessionName).toBeUndefined();
  });
});

describe('createSessionLog: what it is given', () => {
  it('refuses what is not a store, saying what is missing', () => {
    const store = new MemoryStore();
    const cases: [unknown, string][] = [
      [undefined, 'createSessionLog: the store must be a SessionStore (a MemoryStore, a JsonlStore or one of your own), got undefined'],
      [null, 'createSessionLog: the store must be a SessionStore (a MemoryStore, a JsonlStore or one of your own), got null'],
      [{}, 'createSessionLog: the store has no entries array (store.entries)'],
      [{ entries: [], readOnly: 'no', append: store.append, close: store.close }, 'createSessionLog: the store has no boolean readOnly (store.readOnly)'],
      [{ entries: [], readOnly: false, close: store.close }, 'createSessionLog: the store has no append() method (store.append)'],
    ];
    for (const [value, message] of cases) {
      let error: unknown;
      try {
        createSessionLog(value as MemoryStore);
      } catch (e) {
        error = e;
      }
      expect(SessionStoreError.isInstance(error) && [error.code, error.message]).toEqual(['invalid_store', message]);
    }
  });

  it('refuses a store whose entries repeat an id, come before their parent or lack a field', () => {
    expect(() => createSessionLog(new MemoryStore([userEntry('a', null), userEntry('a', null)]))).toThrow('holds the id "a" twice (entries[1])');
    // Followed blindly, a child before its parent can make a path that never ends.
    expect(() => createSessionLog(new MemoryStore([userEntry('a', 'b'), userEntry('b', 'a')]))).toThrow('holds entries[0] ("a") before its parent "b"');
    expect(() => createSessionLog(new MemoryStore([{ ...userEntry('a', null), at: 5 } as never]))).toThrow('holds a bad entry at entries[0], field at: expected a non-empty string');
    expect(() => createSessionLog(new MemoryStore([userEntry('a', null), { ...userEntry('b', 'a'), message: { role: 'assistant', content: 'hello' } } as never]))).toThrow(
      'holds a bad entry at entries[1], field message.content: expected an array of parts',
    );
  });

  it('setLabel and setSessionName check their options, naming the bad one', async () => {
    const log = createSessionLog(new MemoryStore(chain(1)));
    await expect(log.setLabel('e0', 'x', { id: '' })).rejects.toThrow('setLabel: option id: expected a non-empty string, got ""');
    await expect(log.setLabel('e0', 7 as never)).rejects.toThrow('setLabel: option label: expected a string or undefined, got number');
    await expect(log.setSessionName('n', { when: 'now' } as never)).rejects.toThrow('setSessionName: option when: unknown option');
    expect(log.size).toBe(1);
  });
});
