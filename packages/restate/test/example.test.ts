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
