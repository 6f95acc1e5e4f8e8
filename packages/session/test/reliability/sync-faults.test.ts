import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { AppendError, JsonlStore } from '../../src/index.js';
import { userEntry } from '../entries.js';
import { useTempDir } from '../temp-dir.js';
import { descriptorsOn, type FailingSyncs, failSyncs } from './failing-sync.js';

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
