import { randomUUID } from 'node:crypto';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SessionFileError } from '../errors/index.js';
import { notAFolder } from './file-in-the-way.js';
import { writeNewFile } from './write-new-file.js';
import { HEADER_TYPE, SESSION_FORMAT_VERSION, serializeHeader, type SessionFileHeader } from './format.js';
import type { CreateOptions, Durability } from './jsonl-store.js';

export function notFound(path: string): SessionFileError {
  return new SessionFileError(
    { file: path, line: 0 },
    'no session file there (to start a new session at this path, open it with the option create: true)',
    'not_found',
  );
}

/**
 * Opens the file to read it (and, for a writer, to append to it later): one handle for both. A
 * writer's missing file is created first when `create` is given.
 */
export async function openSessionFile(path: string, readOnly: boolean, create: CreateOptions | undefined, durability: Durability): Promise<FileHandle> {
  try {
    return await open(path, readOnly ? 'r' : 'r+');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !create) throw notFound(path);
    if (code === 'ENOTDIR') throw new SessionFileError({ file: path, line: 0 }, `no session file there (${notAFolder(path)})`, 'not_found');
    if (code !== 'ENOENT') throw new SessionFileError({ file: path, line: 0 }, `cannot read the session file: ${(error as Error).message}`, 'unreadable');
  }
  try {
    await createFile(path, create!, durability);
  } catch (error) {
    throw new SessionFileError({ file: path, line: 0 }, `cannot create the session file: ${(error as Error).message}`, 'unwritable');
  }
  return open(path, 'r+');
}

/** Writes the header to a temporary file and renames it into place: the file never exists without it. */
async function createFile(path: string, create: CreateOptions, durability: Durability): Promise<void> {
  const header: SessionFileHeader = {
    type: HEADER_TYPE,
    version: SESSION_FORMAT_VERSION,
    id: create.id ?? randomUUID(),
    createdAt: create.createdAt ?? new Date().toISOString(),
  };
  const bytes = Buffer.from(`${serializeHeader(header)}\n`, 'utf8');
  const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  await writeNewFile(temp, bytes, { flush: durability !== 'never' });
  await rename(temp, path);
  if (durability === 'always') await syncDirectory(dirname(path));
}

export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
