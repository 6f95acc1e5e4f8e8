import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTempDir } from './temp-dir.js';
import { createSessionLog, JsonlStore } from '../src/index.js';
import { chain, userEntry } from './entries.js';
import { opArb, recordSession } from './session-ops.js';

let runs = 0;
const tempDir = useTempDir('tiller-prop-');

describe('JsonlStore: close and reopen', () => {
  it('gives the same tree, the same labels and the same context at every entry', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        const file = join(tempDir(), `s${runs++}.jsonl`);
        const log = await recordSession(file, ops);
        const reopened = createSessionLog(await JsonlStore.open(file, { strict: true }));
        try {
          expect(reopened.entries()).toEqual(log.entries());
          expect(reopened.tree()).toEqual(log.tree());
          expect(reopened.leafId).toBe(log.entries().at(-1)?.id ?? null);
          for (const entry of log.entries()) {
            expect(reopened.path(entry.id)).toEqual(log.path(entry.id));
            expect(reopened.context(entry.id)).toEqual(log.context(entry.id));
            expect(reopened.labelOf(entry.id)).toBe(log.labelOf(entry.id));
          }
        } finally {
          await reopened.close();
        }
      }),
      { numRuns: 40 },
    );
  }, 30_000);
});

describe('JsonlStore: a file cut inside its last line', () => {
  it('opens at every byte offset and loses only that line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), async (text) => {
        const file = join(tempDir(), `cut${runs++}.jsonl`);
        const store = await JsonlStore.open(file, { fsync: 'never', create: true });
        const before = chain(3);
        const last = userEntry('last', 'e2', text);
        await store.append([...before, last]);
        await store.close();
        const bytes = await readFile(file);
        const lastLineStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
        for (let cut = lastLineStart; cut < bytes.length; cut++) {
          await writeFile(file, bytes.subarray(0, cut));
          const opened = await JsonlStore.open(file, { readOnly: true, strict: true });
          // Only the newline missing: the line is whole and loads.
          const complete = cut === bytes.length - 1;
          expect(opened.entries).toEqual(complete ? [...before, last] : before);
          expect(opened.warnings.map((w) => w.kind)).toEqual(cut === lastLineStart || complete ? [] : ['torn_line']);
        }
      }),
      { numRuns: 8 },
    );
  }, 30_000);

  it('after a cut, a writer appends on a clean line and the file reads strictly again', async () => {
    const file = join(tempDir(), 'cut-write.jsonl');
    const store = await JsonlStore.open(file, { create: true });
    await store.append([...chain(2), userEntry('last', 'e1', 'héllo ✓ wörld')]);
    await store.close();
    const bytes = await readFile(file);
    const lastLineStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
    for (let cut = lastLineStart; cut < bytes.length; cut++) {
      await writeFile(file, bytes.subarray(0, cut));
      const log = createSessionLog(await JsonlStore.open(file));
      const leaf = log.leafId!;
      await log.append([userEntry('next', leaf)]);
      await log.close();
      const again = await JsonlStore.open(file, { readOnly: true, strict: true });
      expect(again.warnings).toEqual([]);
      expect(again.entries.map((e) => e.id)).toEqual(cut === bytes.length - 1 ? ['e0', 'e1', 'last', 'next'] : ['e0', 'e1', 'next']);
    }
  });
});
