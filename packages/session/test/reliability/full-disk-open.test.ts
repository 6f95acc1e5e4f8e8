import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { JsonlStore, SessionFileError } from '../../src/index.js';
import { mountSmallDisk } from '../../../../test-support/small-disk.js';

it('opening a session on a full disk fails with a SessionFileError naming the lock file and ENOSPC, and leaves no file behind', async (ctx) => {
  const disk = await mountSmallDisk(64);
  if ('refused' in disk) return ctx.skip(disk.refused);
  try {
    await disk.fill();
    const file = join(disk.dir, 'chat.jsonl');
    const failed = await JsonlStore.open(file, { create: true }).catch((error: unknown) => error);
    // Before: a bare `Error: ENOSPC: no space left on device, write` naming no file, and an empty
    // `chat.jsonl.lock.<pid>.<uuid>.tmp` left beside the session at every try.
    expect(SessionFileError.isInstance(failed)).toBe(true);
    expect(failed).toMatchObject({ code: 'unwritable', message: `${file}: cannot create the lock file ${file}.lock: ENOSPC: no space left on device, write` });
    expect(await readdir(disk.dir)).toEqual(['filler']);
  } finally {
    await disk.unmount();
  }
});

it('creating a session file on a disk with room for its lock but not its header fails naming the file and ENOSPC, and leaves no file behind', async (ctx) => {
  const disk = await mountSmallDisk(64);
  if ('refused' in disk) return ctx.skip(disk.refused);
  try {
    // One page back: the lock file takes it, the header's temporary file finds none.
    await disk.fill(4);
    const file = join(disk.dir, 'chat.jsonl');
    const failed = await JsonlStore.open(file, { create: true }).catch((error: unknown) => error);
    expect(SessionFileError.isInstance(failed)).toBe(true);
    expect(failed).toMatchObject({ code: 'unwritable', message: `${file}: cannot create the session file: ENOSPC: no space left on device, write` });
    expect(await readdir(disk.dir)).toEqual(['filler']);
  } finally {
    await disk.unmount();
  }
});
