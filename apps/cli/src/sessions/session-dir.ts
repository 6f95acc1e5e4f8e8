import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where `tiller run` keeps the sessions of a working directory when no `--session` is given:
 * `$TILLER_HOME/sessions/<the directory, slashes as dashes>/` (TILLER_HOME defaults to ~/.tiller).
 */
export function sessionDirFor(cwd: string, env: NodeJS.ProcessEnv): string {
  const home = env.TILLER_HOME ? resolve(env.TILLER_HOME) : join(homedir(), '.tiller');
  return join(home, 'sessions', `-${resolve(cwd).replace(/^[/\\]+/, '').replace(/[/\\:]+/g, '-')}-`);
}

export interface SessionFileInfo {
  path: string;
  modifiedMs: number;
  size: number;
}

/** The session files of a folder (journals left out), newest first; an empty list when it does not exist. */
export async function listSessionFiles(dir: string): Promise<SessionFileInfo[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names.filter((n) => n.endsWith('.jsonl') && !n.endsWith('.journal.jsonl'));
  const infos = await Promise.all(
    files.map(async (name) => {
      const path = join(dir, name);
      const s = await stat(path);
      return s.isFile() ? { path, modifiedMs: s.mtimeMs, size: s.size } : undefined;
    }),
  );
  return infos.filter((i): i is SessionFileInfo => i !== undefined).sort((a, b) => b.modifiedMs - a.modifiedMs);
}
