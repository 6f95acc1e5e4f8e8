import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { DurableOptionsError } from './errors/durable-options-error.js';
import { LocalServerError } from './errors/local-server-error.js';

export interface LocalServerOptions {
  /** Where the server keeps its data; a fresh temporary folder (removed on stop) by default. */
  baseDir?: string;
  /** Keep fsync on (the default): the numbers then say what a durable turn costs. */
  fsync?: boolean;
  /** How soon a failed attempt is retried (on another worker, when the address has several). Default 100 ms. */
  retryIntervalMs?: number;
  /** Where the server's own log goes; discarded by default. */
  logFile?: string;
}

export interface LocalServer {
  readonly pid: number;
  readonly adminUrl: string;
  readonly ingressUrl: string;
  /** Registers a worker's address (`POST /deployments`); `force` replaces what that address served before. */
  register(url: string): Promise<{ id: string; services: string[] }>;
  /** Stops the server (SIGTERM, then SIGKILL after a grace period) and removes its temporary folder. */
  stop(): Promise<void>;
}

// Checked before anything starts: each value goes into the server's config file or a path, where a
// wrong one is a server that exits with no reason given, or Node's error about some argument.
const LocalServerOptions = z.strictObject({
  baseDir: z.string({ error: 'expected the path of a folder' }).min(1, 'expected the path of a folder').optional(),
  fsync: z.boolean({ error: 'expected true or false' }).optional(),
  retryIntervalMs: z.number({ error: 'expected a whole number of milliseconds above 0' }).int('expected a whole number of milliseconds above 0').positive('expected a whole number of milliseconds above 0').optional(),
  logFile: z.string({ error: 'expected the path of a file' }).min(1, 'expected the path of a file').optional(),
});

/**
 * Starts a Restate server from the `@restatedev/restate-server` npm package, for tests, demos and
 * benchmarks: loopback only, free ports, a fresh data folder, no telemetry, no web UI. The binary
 * itself is spawned (not the npm wrapper), so the pid is the server's.
 */
export async function startLocalServer(given: LocalServerOptions = {}): Promise<LocalServer> {
  const checked = LocalServerOptions.safeParse(given);
  if (!checked.success) throw new DurableOptionsError(`startLocalServer: invalid options:\n${z.prettifyError(checked.error)}`);
  const options = checked.data;
  const binary = serverBinary();
  const temporary = options.baseDir ? undefined : await mkdtemp(join(tmpdir(), 'tiller-restate-'));
  const baseDir = options.baseDir ?? temporary!;
  const [admin, ingress, fabric] = await freePorts(3);
  const retry = options.retryIntervalMs ?? 100;
  const config = [
    'bind-ip = "127.0.0.1"',
    `bind-port = ${fabric}`,
    `advertised-address = "http://127.0.0.1:${fabric}/"`,
    `base-dir = ${JSON.stringify(baseDir)}`,
    'disable-telemetry = true',
    'default-num-partitions = 2',
    'rocksdb-total-memory-size = "256 MiB"',
    'log-filter = "warn"',
    '[admin]',
    `bind-address = "127.0.0.1:${admin}"`,
    'disable-web-ui = true',
    '[ingress]',
    `bind-address = "127.0.0.1:${ingress}"`,
    '[default-retry-policy]',
    `initial-interval = "${retry}ms"`,
    'exponentiation-factor = 1.5',
    `max-interval = "${Math.max(retry, 1000)}ms"`,
    'max-attempts = 1000',
    'on-max-attempts = "kill"',
    ...(options.fsync === false ? ['[worker.storage]', 'rocksdb-disable-wal-fsync = true', '[bifrost.local]', 'rocksdb-disable-wal-fsync = true'] : []),
  ].join('\n');
  const configFile = join(baseDir, 'tiller-restate.toml');
  await writeFile(configFile, config);
  const child = spawn(binary, ['--config-file', configFile, '--no-logo'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // A host that exits without stopping the server (a crash, a closed pipe) takes it along.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  if (options.logFile) {
    const { createWriteStream } = await import('node:fs');
    const out = createWriteStream(options.logFile);
    child.stdout!.pipe(out);
    child.stderr!.pipe(out);
  } else {
    child.stdout!.resume();
    child.stderr!.resume();
  }
  const adminUrl = `http://127.0.0.1:${admin}`;
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    await stopProcess(child);
    if (temporary) await rm(temporary, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(child, [`${adminUrl}/health`, `${ingressUrl}/restate/health`]);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    pid: child.pid!,
    adminUrl,
    ingressUrl,
    async register(url) {
      const response = await fetch(`${adminUrl}/deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri: url, force: true }),
      });
      const text = await response.text();
      if (!response.ok) throw new LocalServerError(`registering ${url} failed: ${response.status} ${text}`);
      const body = JSON.parse(text) as { id: string; services: Array<{ name: string }> };
      return { id: body.id, services: body.services.map((s) => s.name) };
    },
    stop,
  };
}

function serverBinary(): string {
  const require = createRequire(import.meta.url);
  let wrapper: string;
  try {
    wrapper = require.resolve('@restatedev/restate-server/package.json');
  } catch {
    throw new LocalServerError('startLocalServer: @restatedev/restate-server is not installed (add it as a dev dependency)');
  }
  const platform = `@restatedev/restate-server-${process.platform}-${process.arch}`;
  try {
    return createRequire(wrapper).resolve(`${platform}/bin/restate-server`);
  } catch {
    throw new LocalServerError(`startLocalServer: no Restate server binary for ${process.platform}-${process.arch} (${platform} is not installed)`);
  }
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<import('node:net').Server>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

async function waitUntilHealthy(child: ChildProcess, urls: string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new LocalServerError(`the Restate server exited while starting (code ${child.exitCode})`);
    const ok = await Promise.all(urls.map((url) => fetch(url).then((r) => r.ok, () => false)));
    if (ok.every(Boolean)) return;
    if (Date.now() > deadline) throw new LocalServerError(`the Restate server was not healthy within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SIGTERM, then SIGKILL if it is still there after the grace period. */
export async function stopProcess(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
