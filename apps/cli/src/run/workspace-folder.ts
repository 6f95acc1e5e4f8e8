import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { inputError } from '../cli/errors.js';

/**
 * The folder `--workspace` names, which must exist: the file tools would otherwise work in a
 * mistyped path, and a write would create it.
 */
export function workspaceFolder(cwd: string, given: string | undefined): string {
  const path = resolve(cwd, given ?? '.');
  const found = statSync(path, { throwIfNoEntry: false });
  if (found === undefined) throw inputError(`tiller run: --workspace ${path}: no such folder`);
  if (!found.isDirectory()) throw inputError(`tiller run: --workspace ${path}: a file, not a folder`);
  return path;
}
