import { spawn } from 'node:child_process';
import { tillerCommand, repoRoot } from './tiller.js';

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\r/g;

export interface PtyRun {
  /** Everything the program wrote to its terminal so far, escape codes and carriage returns removed. */
  text(): string;
  /** What it wrote, as it wrote it. */
  raw(): string;
  /** Types into the terminal. */
  type(keys: string): void;
  /** Resolves once the output (cleaned) matches, after `from` characters; rejects after `timeoutMs`. */
  waitFor(pattern: RegExp | string, options?: { from?: number; timeoutMs?: number }): Promise<number>;
  exited: Promise<number | null>;
  /** The pid of `script`, whose descendant runs tiller. */
  pid: number;
  kill(): void;
}

/**
 * Starts `tiller ...args` on a pseudo-terminal made by util-linux `script`, so that stdin and
 * stdout are a terminal: the way a person runs it.
 */
export function tillerInPty(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string; fileSizeKib?: number } = {}): PtyRun {
  const tillerLine = [process.execPath, ...tillerCommand, ...args].map(quote).join(' ');
  // A file size limit as `tiller()` sets one: SIGXFSZ ignored, so a write past it fails with EFBIG.
  const command = options.fileSizeKib === undefined ? tillerLine : `bash -c ${quote(`trap '' XFSZ; ulimit -f ${options.fileSizeKib}; exec ${tillerLine}`)}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, TERM: 'xterm-256color', NO_COLOR: undefined, FORCE_COLOR: undefined, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
    for (const l of listeners) l();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const text = () => raw.replace(ANSI, '');
  return {
    text,
    raw: () => raw,
    type: (keys) => child.stdin.write(keys),
    waitFor(pattern, { from = 0, timeoutMs = 20_000 } = {}) {
      const find = () => {
        const rest = text().slice(from);
        const at = typeof pattern === 'string' ? rest.indexOf(pattern) : rest.search(pattern);
        return at < 0 ? -1 : from + at;
      };
      return new Promise((resolve, reject) => {
        const check = () => {
          const at = find();
          if (at < 0) return;
          cleanup();
          resolve(at + 1);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${String(pattern)}; the terminal shows:\n${text()}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    exited,
    pid: child.pid!,
    kill: () => child.kill('SIGKILL'),
  };
}
