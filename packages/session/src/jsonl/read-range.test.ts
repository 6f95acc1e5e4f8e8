import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readRange } from './read-range.js';

it('reads a range of a file, and what there is when the file ends before the range does', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tiller-range-'));
  try {
    const file = join(dir, 'data.txt');
    const text = 'x'.repeat(3 << 20) + 'the end';
    await writeFile(file, text);
    const handle = await open(file, 'r');
    try {
      expect((await readRange(handle, 0, text.length)).toString()).toBe(text);
      expect((await readRange(handle, 3 << 20, 3)).toString()).toBe('the');
      expect((await readRange(handle, text.length - 3, 100)).toString()).toBe('end');
    } finally {
      await handle.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
