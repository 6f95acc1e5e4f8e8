import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Io } from '../cli/command.js';
import { inputError, usageError } from '../cli/errors.js';
import { whyNotWritten } from '../cli/write-failure.js';
import { listSessionFiles, sessionDirFor } from '../sessions/session-dir.js';

export interface SessionChoice {
  session?: string | undefined;
  continue?: boolean | undefined;
  resume?: boolean | undefined;
}

/**
 * The session file a run writes to: `--session FILE`, the newest of the working directory
 * (`--continue`), one picked from a list (`--resume`, on a terminal), or a new file in the
 * directory's session folder.
 */
export async function runSessionFile(choice: SessionChoice, io: Io): Promise<{ path: string; isNew: boolean }> {
  const given = [choice.session !== undefined && '--session', choice.continue && '--continue', choice.resume && '--resume'].filter(Boolean);
  if (given.length > 1) throw usageError(`tiller run: ${given.join(' and ')} each choose the session; give one`);
  if (choice.session !== undefined) {
    const path = resolve(io.cwd, choice.session);
    return { path, isNew: !existsSync(path) };
  }
  const dir = sessionDirFor(io.cwd, io.env);
  if (choice.continue) {
    const newest = (await listSessionFiles(dir))[0];
    if (!newest) throw inputError(`no session to continue for ${io.cwd} (sessions are kept in ${dir})`);
    return { path: newest.path, isNew: false };
  }
  if (choice.resume) return { path: await pickSession(dir, io), isNew: false };
  await mkdir(dir, { recursive: true }).catch((error: unknown) => {
    const home = io.env.TILLER_HOME ? `TILLER_HOME ${resolve(io.env.TILLER_HOME)}: ` : '';
    throw inputError(`tiller run: ${home}cannot make the sessions folder ${dir}: ${whyNotWritten(dir, error)}`);
  });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return { path: join(dir, `${stamp}-${randomUUID().slice(0, 8)}.jsonl`), isNew: true };
}

async function pickSession(dir: string, io: Io): Promise<string> {
  if (!io.stdin.isTTY) throw usageError('tiller run: --resume picks a session on a terminal; give --session FILE or --continue');
  const files = (await listSessionFiles(dir)).slice(0, 20);
  if (files.length === 0) throw inputError(`no session to resume for ${io.cwd} (sessions are kept in ${dir})`);
  for (const [i, file] of files.entries()) {
    io.stdout.write(`${String(i + 1).padStart(3)}  ${new Date(file.modifiedMs).toISOString().slice(0, 16).replace('T', ' ')}  ${file.path}\n`);
  }
  const rl = createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream, terminal: true });
  try {
    const answer = (await rl.question('resume which session? ')).trim();
    const n = Number(answer);
    if (!Number.isInteger(n) || n < 1 || n > files.length) throw usageError(`tiller run: pick a number from 1 to ${files.length}, got ${JSON.stringify(answer)}`);
    return files[n - 1]!.path;
  } finally {
    rl.close();
  }
}
