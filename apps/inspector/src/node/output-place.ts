import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** What a stat of `path` found: a file, a folder, nothing, or a file further up standing where a folder should be. */
async function kindAt(path: string): Promise<'file' | 'folder' | 'missing' | 'blocked'> {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    if (code === 'ENOTDIR') return 'blocked';
    throw error;
  }
}

/**
 * Why a file cannot be written at `path` (an absolute path), in words naming what is in the way,
 * or undefined when it can be tried. Found before any work is done, so a bad path fails at once
 * and nothing is left half-made; what only the write can tell (a permission) the write reports.
 */
export async function whyNotWritable(path: string): Promise<string | undefined> {
  switch (await kindAt(path)) {
    case 'folder':
      return 'it is a folder; give the path of a file in it';
    case 'file':
      return undefined;
    case 'missing': {
      // Had a file stood in the way, the stat would have said ENOTDIR.
      const folder = dirname(path);
      return (await kindAt(folder)) === 'missing' ? `the folder ${folder} does not exist; create it first` : undefined;
    }
    case 'blocked':
      return fileInTheWay(path);
  }
}

/** The file up `path` that stands where a folder should be. */
async function fileInTheWay(path: string): Promise<string> {
  for (let at = dirname(path); dirname(at) !== at; at = dirname(at)) {
    if ((await kindAt(at)) === 'file') return `${at} is a file, not a folder`;
  }
  return 'a part of the path is a file, not a folder';
}
