import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type DurableClient, type LocalServer, startLocalServer } from '../../src/index.js';
import { stopProcess } from '../../src/local-server.js';
import { type Balancer, startBalancer } from './tcp-balancer.js';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..', '..');

export interface TestWorker {
  readonly pid: number;
  readonly port: number;
  readonly process: ChildProcess;
  /** What it printed so far. */
  output(): { stdout: string; stderr: string };
}

/** A Restate server from npm, workers in processes of their own behind one balancer address, and a client. */
export interface Cluster {
  server: LocalServer;
  workers: TestWorker[];
  balancer: Balancer;
  client: DurableClient;
  logFile: string;
  /** The tool and model log, as lines `[what, id, pid]`. */
  log(): Promise<Array<[string, string, number]>>;
  /** Empties the log (between tests, whose sessions reuse call ids). */
  clearLog(): Promise<void>;
  /** SIGKILLs the worker with this pid (only a worker this cluster started). */
  kill(pid: number): Promise<void>;
  /** Starts workers until there are as many live ones as at the start, behind the same address. */
  respawn(): Promise<void>;
  stop(): Promise<void>;
}

export async function startCluster(workerCount = 2): Promise<Cluster> {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-durable-test-'));
  const logFile = join(dir, 'tools.log');
  const server = await startLocalServer({ logFile: join(dir, 'server.log') });
  const workers: TestWorker[] = [];
  let balancer: Balancer | undefined;
  const stop = async () => {
    await Promise.all(workers.map((w) => stopProcess(w.process, 2_000)));
    await balancer?.close();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < workerCount; i++) workers.push(await startWorker(logFile));
    balancer = await startBalancer(workers.map((w) => w.port));
    await server.register(balancer.url);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    server,
    workers,
    balancer,
    client: connect({ ingressUrl: server.ingressUrl }),
    logFile,
    async log() {
      const text = await readFile(logFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [what, id, pid] = line.split(' ');
          return [what!, id!, Number(pid)];
        });
    },
    clearLog: () => writeFile(logFile, ''),
    async kill(pid) {
      const worker = workers.find((w) => w.pid === pid);
      if (!worker) throw new Error(`pid ${pid} is not a worker this test started`);
      const exited = new Promise((resolve) => worker.process.once('exit', resolve));
      worker.process.kill('SIGKILL');
      await exited;
    },
    async respawn() {
      const alive = workers.filter((w) => w.process.exitCode === null && w.process.signalCode === null);
      while (alive.length < workerCount) alive.push(await startWorker(logFile));
      workers.splice(0, workers.length, ...alive);
      balancer!.setBackends(alive.map((w) => w.port));
    },
    stop,
  };
}

/** `node --import tsx worker.ts`: the pid is the worker's own, so SIGKILL stops the process that does the work. */
const startWorker = (logFile: string) => spawnWorker(join(here, 'worker.ts'), { LOG_FILE: logFile });

/** A worker process that runs `script`, which serves on PORT and prints `listening <port>`. */
export async function spawnWorker(script: string, env: Record<string, string> = {}): Promise<TestWorker> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: packageDir,
    env: { ...process.env, PORT: '0', RESTATE_LOGGING: 'WARN', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  let out = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`a worker exited while starting (code ${code}): ${stderr}`)));
  });
  return { pid: child.pid!, port, process: child, output: () => ({ stdout: out, stderr }) };
}

/** Polls until `check` gives a value (not undefined), or fails after `timeoutMs` saying what it waited for. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
