import { unlink, writeFile } from 'node:fs/promises';

/**
 * Writes `data` into a new file at `path`, which must not exist. A write the system refuses part
 * way (a full disk, a file size limit) still leaves the file it created, empty or cut short: it
 * is removed before the error goes on, so a failure leaves nothing beside the session.
 */
export async function writeNewFile(path: string, data: string | Uint8Array, options: { flush?: boolean } = {}): Promise<void> {
  try {
    await writeFile(path, data, { flag: 'wx', ...options });
  } catch (error) {
    // EEXIST: the file there is not the one this call made, so not this call's to remove.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await unlink(path).catch(() => undefined);
    throw error;
  }
}
