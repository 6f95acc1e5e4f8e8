import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Fills what is left of the disk with one file, `filler`, then gives `leaveKib` of it back; `free()` removes it. */
  fill(leaveKib?: number): Promise<void>;
  free(): Promise<void>;
  unmount(): Promise<void>;
}

/**
 * A tmpfs of `kib` KiB mounted on a new temporary folder: a disk that fills up for real (ENOSPC).
 * Mounting needs root and a system that allows it; where it is refused the result says why, so the
 * test can skip saying so.
 */
export async function mountSmallDisk(kib: number): Promise<SmallDisk | { refused: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    return { refused: `mount -t tmpfs was refused here (${(mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim()})` };
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    async fill(leaveKib = 0) {
      // One write asks for more than the disk holds: it writes what fits, then fails with ENOSPC.
      await writeFile(filler, Buffer.alloc(kib * 1024)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOSPC') throw error;
      });
      if (leaveKib > 0) await truncate(filler, Math.max(0, (await stat(filler)).size - leaveKib * 1024));
    },
    free: () => rm(filler, { force: true }),
    async unmount() {
      // Lazy: a file a failed test left open must not keep the disk (and its folder) in place.
      spawnSync('umount', ['-l', dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
