import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type LocalServer, startLocalServer } from '../src/index.js';
import { stopProcess } from '../src/local-server.js';
import { spawnWorker, type TestWorker, waitFor } from './support/cluster.js';

/**
 * Host code of a durable agent (its compactor, its model, a tool) adds an abort listener that
 * throws to the signal it was lent, and the turn is cancelled while it runs. Node reports such a
 * throw as an uncaught exception, which would end the worker, so the worker runs in a process of
 * its own (`support/listener-worker.ts`). One row in docs/reliability.md (durable turns).
 */
const here = dirname(fileURLToPath(import.meta.url));
let server: LocalServer;
let worker: TestWorker;
beforeAll(async () => {
  server = await startLocalServer();
  worker = await spawnWorker(join(here, 'support', 'listener-worker.ts'));
  await server.register(`http://127.0.0.1:${worker.port}`);
});
afterAll(async () => {
  if (worker) await stopProcess(worker.process, 2_000);
  await server?.stop();
});

/** Fails after `ms` saying what did not end, instead of waiting for the test's timeout. */
const within = <T>(ms: number, what: string, promise: Promise<T>) =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} did not end within ${ms} ms; ${workerState()}`)))]);
const alive = () => worker.process.exitCode === null && worker.process.signalCode === null;
const workerState = () => `the worker ${alive() ? 'lives' : 'died'}; its stderr: ${worker.output().stderr.slice(-2_000)}`;

describe('an abort listener of a durable agent\'s host code that throws when the turn is cancelled', () => {
  for (const [what, where] of [
    ['the model', 'model test/listening abort listener'],
    ['a tool', 'tool hang abort listener'],
    // Last: before the fix, this one killed the worker.
    ['compaction', 'compactor listening abort listener'],
  ] as const) {
    it(`in ${what}: the worker lives, logs a warning saying what failed, and the next turn completes`, async () => {
      const session = connect({ ingressUrl: server.ingressUrl, name: 'ListeningSession' }).session(`hang-in-${what.replaceAll(' ', '-')}`);
      const turn = await session.start(`hang in ${what}`);
      await waitFor(`the listener in ${what}`, () => (worker.output().stdout.includes(`waiting in ${what}\n`) ? true : undefined));
      expect(await session.abort('the host aborted')).toBe(true);
      expect(await within(20_000, 'the aborted turn', turn.outcome())).toMatchObject({ status: 'aborted', reason: 'the host aborted' });
      const warning = await waitFor(
        'the warning',
        () => worker.output().stderr.split('\n').find((line) => line.includes(`${where} failed`)),
        10_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; ${workerState()}`);
      });
      expect(warning).toContain(`${what} cleanup failed`);
      expect(warning).toContain(turn.turnId);
      expect(alive()).toBe(true);
      expect(await within(20_000, 'the next turn', session.prompt('hello'))).toMatchObject({ status: 'completed' });
      expect(alive()).toBe(true);
    }, 60_000);
  }
});
