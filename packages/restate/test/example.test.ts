import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

it('the example of docs/durable.md runs a turn with an approval on a server it starts and stops', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(here, '..', 'examples', 'durable-host.ts')], {
    cwd: join(here, '..'),
    env: { ...process.env, RESTATE_LOGGING: 'WARN' },
  });
  expect(stdout).toContain('event 0: message.added');
  expect(stdout).toContain('outcome: completed after 1 tool round(s); notebook: ["buy bread"]');
  expect(stdout).toMatch(/entries in the log: 4\n/);
});

it('the engine-of-your-own example of docs/durable.md runs a turn on the shell steps and replays it from its journal', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(here, '..', 'examples', 'own-engine.ts')], { cwd: join(here, '..') });
  const lines = stdout.trim().split('\n');
  expect(lines[0]).toBe('completed after 1 tool round(s); tools ran 2 times; model calls 2; journal steps 9');
  // The replay answers every step from the journal: nothing ran or was called again.
  expect(lines[1]).toBe(lines[0]);
  expect(lines[2]).toBe('replayed log is the same: true');
});
