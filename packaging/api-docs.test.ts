import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const typedoc = join(dirname(createRequire(join(root, 'package.json')).resolve('typedoc/package.json')), 'bin/typedoc');

it('the API reference (pnpm docs:api) builds from the sources without a warning', async () => {
  const out = await mkdtemp(join(tmpdir(), 'tiller-api-'));
  try {
    // typedoc.json sets treatWarningsAsErrors: a warning fails the run, and its text is the failure.
    const result = await run(process.execPath, [typedoc, '--out', out, '--logLevel', 'Warn'], { cwd: root, maxBuffer: 16 << 20 }).then(
      ({ stdout, stderr }) => ({ ok: true, output: stdout + stderr }),
      (error: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${error.stdout ?? ''}${error.stderr ?? String(error)}` }),
    );
    expect(result.output).not.toMatch(/\[warning\]|\[error\]/);
    expect(result.ok).toBe(true);
    const modules = await readdir(join(out, 'modules'));
    for (const name of ['core', 'session', 'compaction', 'shell', 'testing', 'restate']) expect(modules.some((m) => m.includes(name))).toBe(true);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}, 300_000);
