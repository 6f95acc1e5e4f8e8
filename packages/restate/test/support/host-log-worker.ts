import { createSessionLog, MemoryStore, type SessionLog } from '@tiller/session';
import { type LocalServer, serve, type ServeOptions, startLocalServer, type Worker } from '../../src/index.js';

/** A Restate server from npm and one worker in this process whose session logs the test holds. */
export interface HostLogWorker {
  server: LocalServer;
  worker: Worker;
  /** The session's log, made on first use (by the test or by a turn). */
  logOf(sessionId: string): SessionLog;
  /** How often turns opened the session's log: once per run of the handler, a replay included. */
  opened(sessionId: string): number;
  stop(): Promise<void>;
}

/** Serves `agent` with `sessionLog` over in-memory logs, one per session, registered with a fresh server. */
export async function startHostLogWorker(agent: Omit<ServeOptions, 'sessionLog' | 'port'>): Promise<HostLogWorker> {
  const logs = new Map<string, SessionLog>();
  const opens = new Map<string, number>();
  const logOf = (id: string) => {
    if (!logs.has(id)) logs.set(id, createSessionLog(new MemoryStore()));
    return logs.get(id)!;
  };
  const server = await startLocalServer();
  let worker: Worker | undefined;
  const stop = async () => {
    await worker?.close();
    await server.stop();
  };
  try {
    worker = await serve({
      ...agent,
      sessionLog: (id) => {
        opens.set(id, (opens.get(id) ?? 0) + 1);
        return logOf(id);
      },
    });
    await server.register(worker.url);
  } catch (error) {
    await stop();
    throw error;
  }
  return { server, worker, logOf, opened: (id) => opens.get(id) ?? 0, stop };
}
