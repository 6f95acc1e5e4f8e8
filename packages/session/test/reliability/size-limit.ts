import { spawn } from 'node:child_process';

export interface LimitedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node script ...args` with its file size limit at `kib` KiB and SIGXFSZ ignored: a write
 * past the limit then fails with EFBIG, as on a file system that refuses to grow the file, instead
 * of killing the process (an ignored signal stays ignored across exec). Needs no privileges.
 */
export function runWithFileSizeLimit(kib: number, script: string, args: readonly string[]): Promise<LimitedRun> {
  const child = spawn('bash', ['-c', `trap '' XFSZ; ulimit -f ${kib}; exec "$0" "$@"`, process.execPath, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}
