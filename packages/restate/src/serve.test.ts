import { existsSync } from 'node:fs';
import { scriptedModel } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { DurableOptionsError } from './errors/durable-options-error.js';
import { serve } from './serve.js';

describe('serve', () => {
  const model = scriptedModel([]);

  it('refuses a port or host it cannot listen on, at configuration, naming the option', async () => {
    const socketName = `tiller-serve-test-${process.pid}`;
    for (const port of [socketName, -1, 1.5, 65_536, '8080']) {
      const refused = serve({ model, port: port as never });
      await expect(refused).rejects.toThrow(DurableOptionsError);
      await expect(refused).rejects.toThrow(/^serve: invalid options:[\s\S]*at port/);
    }
    // A port that is a string would have been a Unix socket of that name in the current folder.
    expect(existsSync(socketName)).toBe(false);
    for (const host of ['', 5]) await expect(serve({ model, host: host as never })).rejects.toThrow(/^serve: invalid options:[\s\S]*at host/);
  });

  it('listens on a free loopback port by default, and closes', async () => {
    const worker = await serve({ model });
    expect(worker.url).toBe(`http://127.0.0.1:${worker.port}`);
    expect(worker.port).toBeGreaterThan(0);
    await worker.close();
  });
});
