import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, sqliteCheckpointing } from './sqlite-checkpointer.js';

const real = await sqliteCheckpointing();

describe('loading the optional SQLite checkpointer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tiller-bench-sqlite-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('says the package is not installed when it cannot be imported', async () => {
    const missing = await load('@tiller/no-such-checkpointer');
    expect(missing).toEqual({ available: false, reason: expect.stringMatching(/^@tiller\/no-such-checkpointer is not installed \(.+\)$/) });
  });

  it('says better-sqlite3 did not build when the package imports but cannot open a database', async () => {
    // What better-sqlite3 does without its addon: the import works, opening a database throws.
    const stub = join(dir, 'unbuilt.mjs');
    await writeFile(
      stub,
      'export const SqliteSaver = { fromConnString() { throw new Error("Could not locate the bindings file. Tried:\\n → build/better_sqlite3.node"); } };\n',
    );
    const unbuilt = await load(pathToFileURL(stub).href);
    expect(unbuilt.available).toBe(false);
    if (!unbuilt.available) {
      expect(unbuilt.reason).toContain('better-sqlite3');
      expect(unbuilt.reason).toContain('cannot load its native addon: it did not build at install');
      // The first line of the error, not its list of tried paths.
      expect(unbuilt.reason).toMatch(/\(Could not locate the bindings file\.\)$/);
    }
  });

  it.skipIf(!real.available)(`opens a checkpointer on a file where the package built${real.available ? '' : ` (skipped: ${real.reason})`}`, async () => {
    if (!real.available) return;
    const saver = real.open(join(dir, 'checkpoints.sqlite'));
    expect(saver.db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    saver.db.close();
  });
});
