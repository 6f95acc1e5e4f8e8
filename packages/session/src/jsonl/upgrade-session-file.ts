import { randomUUID } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SessionFileError, SessionOptionsError } from '../errors/index.js';
import { acquireLock, lockRefused } from './file-lock.js';
import { SESSION_FORMAT_VERSION, serializeEntry, serializeHeader } from './format.js';
import { JsonlStore } from './jsonl-store.js';
import { syncDirectory } from './session-file.js';
import { writeNewFile } from './write-new-file.js';

/**
 * Writes a copy of a session file in the current format version (same session id, same entries),
 * to `target` (default: in place, atomically). The only operation that rewrites a session file.
 */
export async function upgradeSessionFile(path: string, target: string = path): Promise<{ from: number; to: number }> {
  if (typeof target !== 'string' || target === '') {
    throw new SessionOptionsError('upgradeSessionFile', 'target', `expected the path to write the copy to, got ${JSON.stringify(target) ?? String(target)}`);
  }
  const source = await JsonlStore.open(path, { readOnly: true, strict: true });
  const lock = await acquireLock(target).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw lockRefused(target, error) ?? error;
    throw new SessionFileError({ file: target, line: 0 }, `cannot write the copy: the folder ${dirname(target)} does not exist`, 'not_found');
  });
  try {
    let text = `${serializeHeader({ ...source.header, version: SESSION_FORMAT_VERSION })}\n`;
    for (const entry of source.entries) text += `${serializeEntry(entry)}\n`;
    const temp = `${target}.${process.pid}.${randomUUID()}.tmp`;
    try {
      await writeNewFile(temp, text, { flush: true });
      await rename(temp, target);
    } catch (error) {
      // The file at `target` is as it was: the copy never replaced it, and no part of it is left.
      throw new SessionFileError({ file: target, line: 0 }, `cannot write the upgraded copy: ${(error as Error).message}`, 'unwritable');
    }
    await syncDirectory(dirname(target));
  } finally {
    await lock.release();
  }
  return { from: source.version, to: SESSION_FORMAT_VERSION };
}
