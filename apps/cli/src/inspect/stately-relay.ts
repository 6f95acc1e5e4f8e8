import { fork } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { createWebSocketInspector } from '@statelyai/inspect';
import type { InspectorLike } from '@tiller/shell';

export interface StatelyRelay {
  /** The relay's page: it embeds Stately's hosted inspector and hands it the turn's events. */
  url: string;
  port: number;
  /** For `createAgent({ inspect })`: the shell reports every input and snapshot to it. */
  inspector: InspectorLike;
  close(): Promise<void>;
}

/** A port that is free on 127.0.0.1 now (Stately's server cannot be asked which one it got). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on 127.0.0.1:`port`; rejects after `timeoutMs`. */
async function listening(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`Stately's relay did not listen on port ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

// The relay's script beside this one: TypeScript when the CLI runs from its sources, JavaScript when built.
const RELAY_SCRIPT = new URL(import.meta.url.endsWith('.ts') ? './stately-relay-process.ts' : './stately-relay-process.js', import.meta.url);

/**
 * Stately's own relay (`createInspectorServer` from `@statelyai/inspect/server`, in a child
 * process) with the shell's reports sent to it over `createWebSocketInspector`. The relay keeps
 * the last 200 reports for a page opened late.
 */
export async function startStatelyRelay(): Promise<StatelyRelay> {
  const port = await freePort();
  const relay = fork(RELAY_SCRIPT, [String(port)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => relay.once('exit', () => resolve()));
  try {
    await Promise.race([listening(port, 10_000), exited.then(() => Promise.reject(new Error(`Stately's relay exited before it listened on port ${port}`)))]);
  } catch (error) {
    relay.kill();
    throw error;
  }
  const inspector = createWebSocketInspector({ url: `ws://127.0.0.1:${port}` });
  return {
    url: `http://localhost:${port}/`,
    port,
    inspector,
    async close() {
      // Let reports still queued on the socket leave before it closes.
      await new Promise((resolve) => setTimeout(resolve, 50));
      inspector.stop();
      if (relay.connected) relay.disconnect();
      await exited;
    },
  };
}
