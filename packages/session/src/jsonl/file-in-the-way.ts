import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * For a path the system refused with ENOTDIR: the nearest folder above it that is a file, what
 * stops anything being opened or made there. Undefined when none is found (it changed meanwhile).
 */
export function fileInTheWay(path: string): string | undefined {
  for (let at = dirname(path); dirname(at) !== at; at = dirname(at)) {
    let found;
    try {
      found = statSync(at, { throwIfNoEntry: false });
    } catch {
      continue; // ENOTDIR again: the file is further up
    }
    if (found) return found.isDirectory() ? undefined : at;
  }
  return undefined;
}

/** What ENOTDIR means for `path`, in words. */
export function notAFolder(path: string): string {
  const file = fileInTheWay(path);
  return file ? `${file} is a file, not a folder` : 'a part of the path is a file, not a folder';
}
