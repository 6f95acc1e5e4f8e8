import { statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { inputError, type CliError } from './errors.js';

/** The first part of `path` that exists and is a file: what stops a folder being made there. */
function fileOnPath(path: string): string | undefined {
  for (let at = path; ; at = dirname(at)) {
    let found;
    try {
      found = statSync(at, { throwIfNoEntry: false });
    } catch {
      continue; // ENOTDIR: the file in the way is further up
    }
    if (found) return found.isDirectory() ? undefined : at;
    if (dirname(at) === at) return undefined;
  }
}

/** What the file system said about writing at `path`, in words: the folder that is missing, the file in the way. */
export function whyNotWritten(path: string, error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return `the folder ${dirname(path)} does not exist`;
    case 'ENOTDIR': {
      const file = fileOnPath(path);
      return file ? `${file} is a file, not a folder` : 'a part of the path is a file, not a folder';
    }
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return e.message;
  }
}

/**
 * A file the user named could not be written (`-o`, `--html`): one line saying why, exit code 3.
 * Undefined for an error that is no file-system refusal.
 */
export function writeFailure(path: string, error: unknown): CliError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EISDIR') return inputError(`${path}: is a folder; give the path of a file to write`);
  if (code === undefined || !['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EFBIG', 'EDQUOT'].includes(code)) return undefined;
  return inputError(`${path}: cannot write the file: ${whyNotWritten(path, error)}`);
}

/**
 * Writes a file the user named that did not exist (`-o`): a write the disk stops part way leaves
 * no part of it behind, so the same command runs once there is room (an output that exists is
 * refused). The failure is `writeFailure`'s one line.
 */
export async function writeNewOutput(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text, { encoding: 'utf8', flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(path, { force: true });
    throw writeFailure(path, error) ?? error;
  }
}
