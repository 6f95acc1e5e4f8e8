import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ChildLimits {
  /** The largest file the child may write, in KiB (`ulimit -f`); a write past it fails with EFBIG. */
  fileSizeKib?: number;
}

/**
 * Runs `script` (a file beside this one) in a Node process of its own with `node --import tsx`, so
 * the process that does the work is the one that would die; resolves with its exit code and what
 * it printed once it has exited on its own (no timer here: the test's timeout is the limit).
 */
export function runTsxChild(script: string, args: readonly string[], nodeFlags: readonly string[] = [], limits: ChildLimits = {}): Promise<ChildRun> {
  const node = [process.execPath, ...nodeFlags, '--import', 'tsx', join(here, script), ...args];
  // With SIGXFSZ ignored (which stays so across exec) a write past the limit fails with EFBIG
  // instead of killing the process: a file that cannot grow, without privileges.
  const command = limits.fileSizeKib === undefined ? node : ['bash', '-c', `trap '' XFSZ; ulimit -f ${limits.fileSizeKib}; exec "$0" "$@"`, ...node];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: join(here, '..', '..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}
