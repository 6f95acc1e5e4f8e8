import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { vi } from 'vitest';

export interface FailingSyncs {
  /** How many fdatasync calls were made since `failSyncs`, failed or not. */
  calls(): number;
  restore(): void;
}

/**
 * Makes the next `count` fdatasync calls of every open file fail with EIO, as a disk that lost a
 * write reports it. No file system here fails a sync for real (tmpfs never does, a size limit
 * or a full disk stops the write before it, and there is no device mapper for dm-error), so the
 * fault goes in at the narrowest seam there is: the sync call of Node's own FileHandle. The
 * writes, the file and the lock are real.
 */
export async function failSyncs(dir: string, count = 1): Promise<FailingSyncs> {
  const probe = await open(join(dir, '.probe'), 'w');
  const prototype = Object.getPrototypeOf(probe) as { datasync(): Promise<void> };
  await probe.close();
  const real = prototype.datasync;
  let left = count;
  const spy = vi.spyOn(prototype, 'datasync').mockImplementation(function (this: unknown) {
    if (left <= 0) return real.call(this);
    left--;
    return Promise.reject(Object.assign(new Error('EIO: i/o error, fdatasync'), { errno: -5, code: 'EIO', syscall: 'fdatasync' }));
  });
  return { calls: () => spy.mock.calls.length, restore: () => spy.mockRestore() };
}
