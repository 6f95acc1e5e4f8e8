import type { FileHandle } from 'node:fs/promises';

/**
 * `length` bytes of a file from `position`, into one buffer, in as few reads as the system
 * allows (`readFile` reads in 512 KiB chunks, each a round trip through the thread pool). Fewer
 * bytes when the file ends first.
 */
export async function readRange(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}
