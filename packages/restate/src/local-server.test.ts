import { describe, expect, it } from 'vitest';
import { DurableOptionsError } from './errors/durable-options-error.js';
import { startLocalServer } from './local-server.js';

describe('startLocalServer', () => {
  it('refuses options it cannot use, naming the option, before any server starts', async () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      // Before: written into the server's config, so the server exited with code 1 and no reason.
      [{ retryIntervalMs: 'abc' }, 'retryIntervalMs'],
      [{ retryIntervalMs: -1 }, 'retryIntervalMs'],
      [{ retryIntervalMs: 1.5 }, 'retryIntervalMs'],
      // Before: any truthy value kept fsync on, so `'no'` was quietly taken for yes.
      [{ fsync: 'no' }, 'fsync'],
      // Before: Node's raw TypeError about a "path" argument.
      [{ baseDir: 5 }, 'baseDir'],
      [{ baseDir: '' }, 'baseDir'],
      [{ logFile: 7 }, 'logFile'],
    ];
    for (const [options, name] of bad) {
      const started = startLocalServer(options as never);
      await expect(started, JSON.stringify(options)).rejects.toThrow(DurableOptionsError);
      await expect(started, JSON.stringify(options)).rejects.toThrow(new RegExp(`^startLocalServer: invalid options:[\\s\\S]*at ${name}`));
    }
    // A typo is not an option left at its default.
    await expect(startLocalServer({ retryInterval: 100 } as never)).rejects.toThrow(/^startLocalServer: invalid options:[\s\S]*retryInterval/);
    await expect(startLocalServer('fast' as never)).rejects.toThrow(/^startLocalServer: invalid options/);
  });
});
