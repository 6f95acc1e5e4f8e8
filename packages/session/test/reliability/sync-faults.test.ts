import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { AppendError, createSessionLog, JsonlStore } from '../../src/index.js';
import { userEntry } from '../entries.js';
import { useTempDir } from '../temp-dir.js';
import { descriptorsOn } from '../../../../test-support/open-descriptors.js';
import { type FailingSyncs, failSyncs } from './failing-sync.js';

// A sync (fdatasync) that the disk fails. The fault is injected at the FileHandle's sync call
// (see failing-sync.ts for why); everything else is real. Rows in docs/reliability.md.

const tempDir = useTempDir('tiller-sync-faults-');
let syncs: FailingSyncs | undefined;
afterEach(() => {
  syncs?.restore();
  syncs = undefined;
});

it('a sync that fails inside close(): the file is closed and the lock released all the same, and close rejects naming the file and the system error', async () => {
  const file = join(tempDir(), 'close.jsonl');
  const store = await JsonlStore.open(file, { create: { id: 's', createdAt: 'now' }, fsync: 'batch', batchIntervalMs: 60_000 });
  await store.append([userEntry('a', null)]);
  syncs = await failSyncs(tempDir());
  const failed = await store.close().catch((error: unknown) => error);
  // Before: the bare `EIO: i/o error, fdatasync`, and the file stayed open (the handle was never closed).
  expect(AppendError.isInstance(failed)).toBe(true);
  expect(failed).toMatchObject({ code: 'write_failed', entryId: 'a', message: expect.stringMatching(new RegExp(`^${file}: the sync of the entry a failed: EIO: i/o error, fdatasync;`)), cause: { code: 'EIO' } });
  expect(descriptorsOn(file)).toBe(0);
  expect(existsSync(`${file}.lock`)).toBe(false);
  // Nothing more to do: a second close resolves, and the file opens again with the entry.
  await store.close();
  const reopened = await JsonlStore.open(file, { readOnly: true });
  expect(reopened.warnings).toEqual([]);
  expect(reopened.entries.map((e) => e.id)).toEqual(['a']);
});

it('a batched sync that fails in the background: the next append rejects naming the file, the entries in doubt and the system error, and writes nothing; flush says so too; close lets the file go; every acknowledged entry is in the file', async () => {
  const file = join(tempDir(), 'batch.jsonl');
  const store = await JsonlStore.open(file, { create: { id: 's', createdAt: 'now' }, fsync: 'batch', batchIntervalMs: 5 });
  const log = createSessionLog(store);
  syncs = await failSyncs(tempDir());
  await log.append([userEntry('a', null)]);
  await log.append([userEntry('b', 'a'), userEntry('c', 'b')]);
  // The timer's sync has run (and failed) once the spy saw it.
  await vi.waitFor(() => expect(syncs!.calls()).toBe(1));
  const size = (await stat(file)).size;
  const refused = await log.append([userEntry('d', 'c')]).catch((error: unknown) => error);
  // Before: the append resolved as if nothing had happened; nobody ever heard of the failed sync.
  expect(AppendError.isInstance(refused)).toBe(true);
  expect(refused).toMatchObject({
    code: 'write_failed',
    entryId: 'd',
    message: `${file}: cannot append the entry d: the sync of the entries a, b, c failed: EIO: i/o error, fdatasync; they were appended, but may not have reached the disk; this store appends nothing more: close it and open the file again to go on`,
    cause: { code: 'EIO' },
  });
  expect(log.has('d')).toBe(false);
  expect((await stat(file)).size).toBe(size);
  // The same failure for a flush, however often it is asked.
  for (let i = 0; i < 2; i++) {
    await expect(store.flush()).rejects.toMatchObject({ code: 'write_failed', entryId: 'a', message: `${file}: the sync of the entries a, b, c failed: EIO: i/o error, fdatasync; they were appended, but may not have reached the disk` });
  }
  // Already told: close does not say it again, and lets the file and the lock go.
  await log.close();
  expect(descriptorsOn(file)).toBe(0);
  expect(existsSync(`${file}.lock`)).toBe(false);
  const reopened = createSessionLog(await JsonlStore.open(file, { fsync: 'batch' }));
  expect(reopened.warnings).toEqual([]);
  expect(reopened.entries().map((e) => e.id)).toEqual(['a', 'b', 'c']);
  await reopened.append([userEntry('d', 'c')]);
  await reopened.close();
});

it('a batched sync that fails in the background with no append after it: close rejects with it, having let the file and the lock go', async () => {
  const file = join(tempDir(), 'quiet.jsonl');
  const store = await JsonlStore.open(file, { create: { id: 's', createdAt: 'now' }, fsync: 'batch', batchIntervalMs: 5 });
  syncs = await failSyncs(tempDir());
  await store.append([userEntry('a', null)]);
  await vi.waitFor(() => expect(syncs!.calls()).toBe(1));
  // Before: close resolved (its own sync succeeded), and the failure of the entry's sync was lost.
  await expect(store.close()).rejects.toMatchObject({ code: 'write_failed', entryId: 'a', message: `${file}: the sync of the entry a failed: EIO: i/o error, fdatasync; it was appended, but may not have reached the disk` });
  expect(descriptorsOn(file)).toBe(0);
  expect(existsSync(`${file}.lock`)).toBe(false);
});
