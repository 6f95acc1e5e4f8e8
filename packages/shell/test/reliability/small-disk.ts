import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  dir: string;
  unmount(): Promise<void>;
}

/**
 * A tmpfs of `kib` KiB on a new temporary folder: a disk that fills up for real (ENOSPC). Where
 * mounting is refused (no root, a container that forbids it) the result says why, for the test
 * to skip with that reason.
 */
export async function mountSmallDisk(kib: number): Promise<SmallDisk | { refused: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status === 0) {
    return {
      dir,
      async unmount() {
        // Lazy: a file a failed test left open must not keep the disk (and its folder) in place.
        spawnSync('umount', ['-l', dir]);
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  return { refused: `mount -t tmpfs was refused here (${(mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim()})` };
}
