import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Io } from '../src/cli/command.js';
import { runCli } from '../src/cli/run-cli.js';
import { styleFor } from '../src/cli/style.js';
import { commands } from '../src/commands/index.js';
import { repoRoot, type TillerRun } from './tiller.js';

const version = (JSON.parse(readFileSync(join(repoRoot, 'apps/cli/package.json'), 'utf8')) as { version: string }).version;

/**
 * Runs a command line through the same `runCli` and command table as the program, in this
 * process, with pipes for stdin, stdout and stderr. For the long tables of bad input; the
 * spawned tests show that the real process does the same.
 */
export async function tillerInProcess(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string; input?: string } = {}): Promise<TillerRun> {
  let stdout = '';
  let stderr = '';
  const out = { write: (text: string) => (stdout += text), isTTY: false };
  const err = { write: (text: string) => (stderr += text), isTTY: false };
  const env = { ...process.env, ...options.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const io: Io = {
    stdout: out,
    stderr: err,
    stdin: Readable.from([options.input ?? '']),
    env,
    cwd: options.cwd ?? repoRoot,
    out: styleFor(out, env),
    err: styleFor(err, env),
    onInterrupt: () => () => undefined,
    onOutputClosed: () => () => undefined,
  };
  const code = await runCli(args, commands, version, io);
  return { code, signal: null, stdout, stderr };
}
