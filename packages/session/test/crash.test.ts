import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createSessionLog, JsonlStore } from '../src/index.js';
import { useTempDir } from './temp-dir.js';

const tempDir = useTempDir('tiller-crash-');
const writer = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));

/** Starts the writer, waits until `count` appends resolved, kills it hard, returns the ids it reported. */
async function crashAfter(file: string, fsync: string, count: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', writer, file, fsync], { stdio: ['ignore', 'pipe', 'inherit'], cwd: fileURLToPath(new URL('.', import.meta.url)) });
  const reported: string[] = [];
  let buffer = '';
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (reported.length < count ? reject(new Error(`writer exited early with ${code}`)) : resolve()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      reported.push(...lines);
      if (reported.length >= count) child.kill('SIGKILL');
    });
  });
  return reported;
}

for (const fsync of ['always', 'never'] as const) {
  it(`fsync ${fsync}: after the writer is killed, every append it saw resolve is there, and its lock is taken over`, async () => {
    const file = join(tempDir(), `crash-${fsync}.jsonl`);
    const reported = await crashAfter(file, fsync, 30);
    const log = createSessionLog(await JsonlStore.open(file));
    const ids = log.entries().map((e) => e.id);
    expect(ids.slice(0, reported.length)).toEqual(reported);
    // Beyond what it reported, at most appends that finished writing before the kill, and at most a torn line.
    expect((log.store as JsonlStore).warnings.every((w) => w.kind === 'torn_line')).toBe(true);
    await log.append([{ id: 'after', parentId: log.leafId, at: '2026-01-01T00:00:00.000Z', kind: 'custom', customType: 'test.mark' }]);
    await log.close();
    expect((await JsonlStore.open(file, { readOnly: true, strict: true })).warnings).toEqual([]);
  }, 30_000);
}
