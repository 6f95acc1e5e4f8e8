import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const built = join(repoRoot, 'apps/cli/dist/main.js');
const source = join(repoRoot, 'apps/cli/src/main.ts');

// tsx's loader by its full path: a bare `--import tsx` resolves from the working directory, and
// some tests run the CLI from folders outside the repository.
export const tsxLoader = pathToFileURL(createRequire(join(repoRoot, 'package.json')).resolve('tsx')).href;

/** True when every source file has its built file, written after it: a stale build is not what is tested. */
function builtIsFresh(): boolean {
  const srcDir = join(repoRoot, 'apps/cli/src');
  const files = readdirSync(srcDir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  return files.every((file) => {
    const out = statSync(join(repoRoot, 'apps/cli/dist', file.replace(/\.ts$/, '.js')), { throwIfNoEntry: false });
    return out !== undefined && out.mtimeMs >= statSync(join(srcDir, file)).mtimeMs;
  });
}

const useBuilt = builtIsFresh();

/** How the tests start the real CLI: the built bin when it is up to date, else the source through tsx. */
export const tillerCommand: string[] = useBuilt ? [built] : ['--import', tsxLoader, source];

// The test runner makes child processes resolve `@tiller/*` to their TypeScript sources (the
// `@tiller/source` condition in NODE_OPTIONS). The built bin runs on plain node, which cannot load
// them: its children resolve the built files, as an installed CLI does.
if (useBuilt && process.env.NODE_OPTIONS) {
  process.env.NODE_OPTIONS = process.env.NODE_OPTIONS.split(/\s+/).filter((flag) => flag !== '--conditions=@tiller/source').join(' ');
}

export interface TillerRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface TillerOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  timeoutMs?: number;
  /**
   * The largest file the program may write, in KiB (`ulimit -f`, with SIGXFSZ ignored so that a
   * write past it fails with EFBIG instead of killing it): a disk that stops taking the session.
   */
  fileSizeKib?: number;
}

/** `tiller ...args` as a command line, under `fileSizeKib` when given (see `TillerOptions`): the process keeps the pid. */
function tillerCommandLine(args: string[], fileSizeKib: number | undefined): string[] {
  const command = [process.execPath, ...tillerCommand, ...args];
  return fileSizeKib === undefined ? command : ['bash', '-c', `trap '' XFSZ; ulimit -f ${fileSizeKib}; exec "$0" "$@"`, ...command];
}

/** Runs `tiller ...args` as a child process (stdout and stderr are pipes, not a terminal). */
export function tiller(args: string[], options: TillerOptions = {}): Promise<TillerRun> {
  return new Promise((resolve, reject) => {
    const limited = tillerCommandLine(args, options.fileSizeKib);
    const child = spawn(limited[0]!, limited.slice(1), {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, TILLER_DEBUG: undefined, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface RunningTiller {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the first match of `pattern` in what the program wrote there so far; rejects if it exits first. */
  printed(pattern: RegExp, on?: 'stdout' | 'stderr'): Promise<RegExpExecArray>;
  output(): { stdout: string; stderr: string };
  /** Sends Ctrl-C (SIGINT) and resolves with the exit code. */
  interrupt(): Promise<number | null>;
  /** Kills it if it is still running (for `finally`). */
  kill(): void;
}

/** Starts `tiller ...args` as a child process that goes on running (stdin closed, stdout and stderr pipes). */
export function startTiller(args: string[], options: Pick<TillerOptions, 'env' | 'cwd' | 'fileSizeKib'> = {}): RunningTiller {
  const [file, ...rest] = tillerCommandLine(args, options.fileSizeKib);
  const child = spawn(file!, rest, {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, TILLER_DEBUG: undefined, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const text = { stdout: '', stderr: '' };
  const watchers: Array<() => void> = [];
  let exit: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      exit = code;
      resolve(code);
      for (const watch of watchers.splice(0)) watch();
    }),
  );
  for (const on of ['stdout', 'stderr'] as const) {
    child[on].setEncoding('utf8').on('data', (chunk: string) => {
      text[on] += chunk;
      for (const watch of [...watchers]) watch();
    });
  }
  child.stdin.end();
  return {
    child,
    printed: (pattern, on = 'stdout') =>
      new Promise((resolve, reject) => {
        const watch = () => {
          const found = pattern.exec(text[on]);
          if (found) {
            watchers.splice(watchers.indexOf(watch) >>> 0, 1);
            resolve(found);
          } else if (exit !== undefined) reject(new Error(`tiller ${args[0]} exited (${exit}) before printing ${pattern}: ${text.stdout.slice(-400)}\n${text.stderr.slice(-400)}`));
        };
        watchers.push(watch);
        watch();
      }),
    output: () => ({ ...text }),
    interrupt: () => {
      child.kill('SIGINT');
      return exited;
    },
    kill: () => {
      if (exit === undefined) child.kill('SIGKILL');
    },
  };
}
