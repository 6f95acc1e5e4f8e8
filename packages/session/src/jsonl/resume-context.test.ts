import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { useTempDir } from '../../test/temp-dir.js';
import { AT, chain, compactionEntry, userEntry } from '../../test/entries.js';
import type { Entry } from '@tiller/core';
import { opArb, recordSession } from '../../test/session-ops.js';
import { createSessionLog } from '../session-log.js';
import { serializeEntry } from './format.js';
import { JsonlStore } from './jsonl-store.js';
import { FIRST_WINDOW_BYTES, resumeContext } from './resume-context.js';

/** Bytes read through file handles, to see how much of a file a resume takes from disk. */
const diskReads = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof fs.open = async (...args) => {
    const handle = await fs.open(...args);
    const read = handle.read.bind(handle) as (...a: unknown[]) => Promise<{ bytesRead: number; buffer: unknown }>;
    handle.read = (async (...a: unknown[]) => {
      const result = await read(...a);
      diskReads.bytes += result.bytesRead;
      return result;
    }) as typeof handle.read;
    return handle;
  };
  return { ...fs, open };
});

let n = 0;
const tempDir = useTempDir('tiller-resume-');

async function writeSession(entries: Parameters<JsonlStore['append']>[0]): Promise<string> {
  const file = join(tempDir(), `s${n++}.jsonl`);
  const store = await JsonlStore.open(file, { fsync: 'never', create: { id: 'resume' } });
  await store.append(entries);
  await store.close();
  return file;
}

/** Resumes a session whose writer died in the middle of one more line. */
async function resumeTorn(entries: Entry[]) {
  const file = await writeSession(entries);
  await writeFile(file, `${await readFile(file, 'utf8')}{"kind":"message","id":"x`);
  return resumeContext(file);
}

describe('resumeContext', () => {
  it('gives the context and path end a full open gives, for random histories', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        const file = join(tempDir(), `p${n++}.jsonl`);
        await recordSession(file, ops);
        const full = createSessionLog(await JsonlStore.open(file, { readOnly: true }));
        const resumed = await resumeContext(file);
        expect(resumed.read).toBe('tail');
        expect(resumed.leafId).toBe(full.leafId);
        expect(resumed.context).toEqual(full.context());
        const fullPath = full.path();
        expect(fullPath.slice(fullPath.length - resumed.path.length)).toEqual(resumed.path);
      }),
      { numRuns: 40 },
    );
  }, 30_000);

  it('reads only from the first kept entry of the latest compaction on', async () => {
    const entries = [...chain(10), compactionEntry('c', 'e9', 'e6'), userEntry('after', 'c')];
    const file = await writeSession(entries);
    // Damage a line before the first kept entry: a tail read never looks at it.
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"id":"e2"', '"id":"e2", broken'));
    const resumed = await resumeContext(file);
    expect(resumed.read).toBe('tail');
    expect(resumed.path.map((e) => e.id)).toEqual(['e6', 'e7', 'e8', 'e9', 'c', 'after']);
    expect(resumed.context).toHaveLength(6);
    expect(resumed.warnings).toEqual([]);
  });

  it('skips a torn last line, as opening does', async () => {
    expect(await resumeTorn(chain(3))).toMatchObject({ read: 'tail', leafId: 'e2', warnings: [{ line: 5, kind: 'torn_line' }] });
  });

  it('a skipped line on the path: the resumed path joins over it as a full open does, with the same context', async () => {
    const file = await writeSession(chain(4));
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"role":"assistant"', '"role":"robot"'));
    const resumed = await resumeContext(file);
    const full = createSessionLog(await JsonlStore.open(file, { readOnly: true }));
    expect(resumed.path.map((e) => [e.id, e.parentId])).toEqual([
      ['e0', null],
      ['e2', 'e0'],
      ['e3', 'e2'],
    ]);
    expect(resumed.context).toEqual(full.context());
    expect(resumed.warnings.map((w) => [w.kind, w.line])).toEqual([
      ['corrupt_line', 3],
      ['skipped_parent', 4],
    ]);
  });

  it('falls back to a full open for a corrupt line on the path and for older formats', async () => {
    const file = await writeSession(chain(4));
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('{"kind":"message","id":"e2"', '{"kind":"message","id":"e2",]'));
    const resumed = await resumeContext(file);
    expect(resumed.read).toBe('full');
    expect(resumed.warnings[0]).toMatchObject({ line: 4, kind: 'corrupt_line' });
    const v1 = join(tempDir(), 'v1.jsonl');
    await writeFile(
      v1,
      [
        JSON.stringify({ type: 'tiller.session', version: 1, id: 'old', createdAt: 't' }),
        JSON.stringify({ type: 'message', id: 'a', parentId: null, timestamp: 't', message: { role: 'user', content: 'hi' } }),
        '',
      ].join('\n'),
    );
    const old = await resumeContext(v1);
    expect(old).toMatchObject({ read: 'full', leafId: 'a', context: [{ role: 'user', content: 'hi' }] });
  });

  it('reads a file that starts with a byte-order mark as a full open does', async () => {
    const file = await writeSession(chain(3));
    await writeFile(file, `\uFEFF${await readFile(file, 'utf8')}`);
    const resumed = await resumeContext(file);
    expect(resumed).toMatchObject({ read: 'tail', leafId: 'e2', warnings: [] });
    expect(resumed.context).toEqual(createSessionLog(await JsonlStore.open(file, { readOnly: true })).context());
  });

  it('reads ids with escapes in them', async () => {
    const file = await writeSession([userEntry('a "quoted" \\ id', null), userEntry('b\u00e9', 'a "quoted" \\ id')]);
    const resumed = await resumeContext(file);
    expect(resumed.read).toBe('tail');
    expect(resumed.path.map((e) => e.id)).toEqual(['a "quoted" \\ id', 'b\u00e9']);
  });

  describe('on a file larger than its first read from the end', () => {
    /** A chain of user entries of about 20 kB each, `count` long: 60 of them pass the first window. */
    const bigChain = (count: number, prefix = 'b', parentId: string | null = null): Entry[] => {
      const out: Entry[] = [];
      for (let i = 0; i < count; i++) out.push(userEntry(`${prefix}${i}`, i === 0 ? parentId : `${prefix}${i - 1}`, `${i} ${'x'.repeat(20_000)}`));
      return out;
    };
    const fullOpen = async (file: string) => createSessionLog(await JsonlStore.open(file, { readOnly: true }));

    it('reads back to the first kept entry, however far before the first window it lies', async () => {
      const entries = [...bigChain(150), compactionEntry('c', 'b149', 'b10'), userEntry('after', 'c')];
      const file = await writeSession(entries);
      const resumed = await resumeContext(file);
      expect(resumed.read).toBe('tail');
      expect(resumed.path.map((e) => e.id)).toEqual([...entries.slice(10).map((e) => e.id)]);
      expect(resumed.context).toEqual((await fullOpen(file)).context());
    });

    it('reads from disk only the end of the file that holds the path', async () => {
      const entries = [...bigChain(150), compactionEntry('c', 'b149', 'b145'), userEntry('after', 'c')];
      const file = await writeSession(entries);
      const size = (await stat(file)).size;
      expect(size).toBeGreaterThan(2 * FIRST_WINDOW_BYTES);
      diskReads.bytes = 0;
      expect((await resumeContext(file)).read).toBe('tail');
      // The header, then one window: the rest of the file stays on disk.
      expect(diskReads.bytes).toBeLessThanOrEqual(64 * 1024 + FIRST_WINDOW_BYTES);
    });

    it('walks to the root of a session without a compaction', async () => {
      const file = await writeSession(bigChain(120));
      const resumed = await resumeContext(file);
      expect(resumed.read).toBe('tail');
      expect(resumed.path).toHaveLength(120);
      expect(resumed.context).toEqual((await fullOpen(file)).context());
    });

    it('reads a last line longer than the first window', async () => {
      const long = userEntry('long', 'b9', 'y'.repeat(FIRST_WINDOW_BYTES + 10));
      const file = await writeSession([...bigChain(10), compactionEntry('c', 'b9', 'b8'), { ...long, parentId: 'c' }]);
      const resumed = await resumeContext(file);
      expect(resumed.read).toBe('tail');
      expect(resumed.path.map((e) => e.id)).toEqual(['b8', 'b9', 'c', 'long']);
    });

    it('numbers a torn last line from the top of the file', async () => {
      expect(await resumeTorn(bigChain(60))).toMatchObject({ read: 'tail', leafId: 'b59', warnings: [{ line: 62, kind: 'torn_line' }] });
    });
  });
});

describe('resumeContext and a full open agree on damaged files', () => {
  const serialized = (entries: Entry[]) => entries.map((e) => `${serializeEntry(e)}\n`).join('');
  const header = `${JSON.stringify({ type: 'tiller.session', version: 2, id: 'd', createdAt: AT })}\n`;
  async function both(body: string) {
    const file = join(tempDir(), `d${n++}.jsonl`);
    await writeFile(file, header + body);
    const full = createSessionLog(await JsonlStore.open(file, { readOnly: true }));
    const resumed = await resumeContext(file);
    return { full, resumed };
  }

  it('a repeated id near the end: both keep its last line', async () => {
    const { full, resumed } = await both(serialized([...chain(3), userEntry('e1', 'e0', 'the same id again')]));
    expect(full.leafId).toBe('e1');
    expect(full.get('e1')).toEqual(userEntry('e1', 'e0', 'the same id again'));
    expect(resumed.leafId).toBe(full.leafId);
    expect(resumed.context).toEqual(full.context());
    expect(resumed.warnings.map((w) => [w.kind, w.line])).toEqual(full.warnings.map((w) => [w.kind, w.line]));
  });

  it('a repeated id whose first line lies before the latest compaction: both keep its last line', async () => {
    const entries = [userEntry('e4', null, 'an old line with a later id'), ...chain(4), compactionEntry('c', 'e3', 'e2'), userEntry('e4', 'c')];
    const { full, resumed } = await both(serialized(entries));
    expect(full.leafId).toBe('e4');
    expect(resumed).toMatchObject({ read: 'tail', leafId: 'e4' });
    expect(resumed.context).toEqual(full.context());
  });

  it('an entry whose parent comes later is a root in both: no path leads forward or around in a circle', async () => {
    // A names Z as its parent and Z names A: followed blindly, the path never ends.
    const { full, resumed } = await both(serialized([userEntry('A', 'Z'), userEntry('Z', 'A')]));
    expect(full.path().map((e) => e.id)).toEqual(['A', 'Z']);
    expect(full.warnings).toEqual([expect.objectContaining({ kind: 'missing_parent', line: 2, field: 'parentId' })]);
    expect(resumed.path.map((e) => [e.id, e.parentId])).toEqual(full.path().map((e) => [e.id, e.parentId]));
    expect(resumed.context).toEqual(full.context());
    // An entry naming itself as its parent, likewise.
    const self = await both(serialized([userEntry('S', 'S')]));
    expect(self.full.path().map((e) => e.id)).toEqual(['S']);
    expect(self.resumed.path.map((e) => e.id)).toEqual(['S']);
  });
});
