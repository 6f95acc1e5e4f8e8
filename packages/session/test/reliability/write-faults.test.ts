import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { AppendError, createSessionLog, JsonlStore } from '../../src/index.js';
import { useTempDir } from '../temp-dir.js';
import { bundleScript } from './bundle-script.js';
import { runWithFileSizeLimit } from './size-limit.js';
import { mountSmallDisk } from '../../../../test-support/small-disk.js';

const tempDir = useTempDir('tiller-write-faults-');
let writer: string;
let upgrader: string;
beforeAll(async () => {
  writer = await bundleScript('limited-writer.ts', tempDir());
  upgrader = await bundleScript('limited-upgrader.ts', tempDir());
}, 60_000);

const at = '2026-01-01T00:00:00.000Z';
const entry = (id: string, parentId: string | null, chars: number) => ({ kind: 'message' as const, id, parentId, at, message: { role: 'user' as const, content: id.repeat(chars) } });

/** A session file holding one root entry `r`. */
async function sessionWithRoot(path: string): Promise<void> {
  const store = await JsonlStore.open(path, { create: { id: 's', createdAt: at } });
  await store.append([entry('r', null, 100)]);
  await store.close();
}

it('an append past the file size limit (EFBIG) fails naming the file and the entries, and leaves no part of its batch for a later append to land on', async () => {
  const file = join(tempDir(), 'limited.jsonl');
  await sessionWithRoot(file);
  const sizeBefore = (await stat(file)).size;
  const run = await runWithFileSizeLimit(4, writer, [file]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const steps = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(steps).toEqual([
    {
      step: 'batch',
      ok: false,
      name: 'AppendError',
      code: 'write_failed',
      entryId: 'A',
      cause: 'EFBIG',
      message: `${file}: cannot append the entries A, B, C: EFBIG: file too large, write; the file was cut back to its last whole entry, so none of them is in it`,
    },
    { step: 'small', ok: true },
    { step: 'closed' },
  ]);
  // Before: the failed write left A, B and part of C on disk; D overwrote the start of A, so the
  // reopen skipped what was left of A as a corrupt line and took B, never acknowledged, as a root.
  const reopened = await JsonlStore.open(file, { readOnly: true });
  expect(reopened.warnings.map((w) => w.message)).toEqual([]);
  expect(reopened.entries.map((e) => `${e.id}<-${e.parentId}`)).toEqual(['r<-null', 'D<-r']);
  expect((await stat(file)).size).toBe(sizeBefore + Buffer.byteLength(`${JSON.stringify(entry('D', 'r', 200))}\n`));
});

it('a disk that fills up (ENOSPC): the append fails naming the file, and once space is freed the same log appends on, the file clean', async (ctx) => {
  const disk = await mountSmallDisk(64);
  if ('refused' in disk) return ctx.skip(disk.refused);
  try {
    const file = join(disk.dir, 'chat.jsonl');
    await sessionWithRoot(file);
    const log = createSessionLog(await JsonlStore.open(file));
    await disk.fill();
    const failed = await log.append([entry('A', 'r', 1500), entry('B', 'A', 1500), entry('C', 'B', 3000)]).catch((error: unknown) => error);
    expect(AppendError.isInstance(failed)).toBe(true);
    expect(failed).toMatchObject({ code: 'write_failed', entryId: 'A', message: expect.stringMatching(new RegExp(`^${file}: cannot append the entries A, B, C: ENOSPC: no space left on device, write;`)) });
    expect(log.has('A')).toBe(false);
    await disk.free();
    await log.append([entry('D', 'r', 200)]);
    await log.close();
    const reopened = await JsonlStore.open(file, { readOnly: true });
    expect(reopened.warnings).toEqual([]);
    expect(reopened.entries.map((e) => e.id)).toEqual(['r', 'D']);
  } finally {
    await disk.unmount();
  }
});

it('upgrading a session file in place past the file size limit fails naming the file, leaves the file as it was, and leaves no part of the copy behind', async () => {
  const folder = join(tempDir(), 'upgrade');
  const file = join(folder, 'big.jsonl');
  await mkdir(folder);
  const store = await JsonlStore.open(file, { create: { id: 's', createdAt: at } });
  await store.append([entry('r', null, 100), entry('big', 'r', 10_000)]);
  await store.close();
  const before = await readFile(file, 'utf8');
  const run = await runWithFileSizeLimit(16, upgrader, [file]);
  expect(run.stderr).toBe('');
  // Before: the bare `EFBIG: file too large, write`, and a 16 KiB `big.jsonl.<pid>.<uuid>.tmp` (the
  // copy cut short) left beside the file: on a full disk, the space the user needs taken again.
  expect(JSON.parse(run.stdout)).toEqual({ ok: false, name: 'SessionFileError', code: 'unwritable', message: `${file}: cannot write the upgraded copy: EFBIG: file too large, write` });
  expect(await readFile(file, 'utf8')).toBe(before);
  expect(await readdir(folder)).toEqual(['big.jsonl']);
});
