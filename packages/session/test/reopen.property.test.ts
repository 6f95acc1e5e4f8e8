import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from '@tiller/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionLog, JsonlStore, type SessionLog } from '../src/index.js';
import { assistantEntry, AT, chain, userEntry } from './entries.js';

let dir: string;
let runs = 0;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-prop-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Op =
  | { op: 'append'; count: number; text: string }
  | { op: 'branch'; pick: number }
  | { op: 'root' }
  | { op: 'label'; pick: number; label: string }
  | { op: 'compact'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('append' as const), count: fc.integer({ min: 1, max: 3 }), text: fc.string({ unit: 'grapheme', maxLength: 12 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('branch' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('root' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('label' as const), pick: fc.nat(), label: fc.string({ maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('compact' as const), pick: fc.nat() }) },
);

async function play(log: SessionLog, ops: readonly Op[]): Promise<void> {
  let n = 0;
  for (const op of ops) {
    const all = log.entries();
    switch (op.op) {
      case 'append': {
        const batch: Entry[] = [];
        for (let i = 0; i < op.count; i++) {
          const parent = batch.at(-1)?.id ?? log.leafId;
          const id = `n${n++}`;
          batch.push(i % 2 === 0 ? userEntry(id, parent, op.text) : assistantEntry(id, parent, op.text));
        }
        await log.append(batch);
        break;
      }
      case 'branch':
        if (all.length > 0) log.branch(all[op.pick % all.length]!.id);
        break;
      case 'root':
        log.branch(null);
        break;
      case 'label':
        if (all.length > 0) await log.setLabel(all[op.pick % all.length]!.id, op.label || undefined, { id: `n${n++}`, at: AT });
        break;
      case 'compact': {
        const path = log.path();
        if (path.length === 0) break;
        const kept = path[op.pick % path.length]!;
        const id = `n${n++}`;
        await log.append([{ id, parentId: log.leafId, at: AT, kind: 'compaction', summary: `up to ${kept.id}`, firstKeptEntryId: kept.id, tokensBefore: 1 }]);
        break;
      }
      default: {
        const unknownOp: never = op;
        throw new Error(`unknown op ${JSON.stringify(unknownOp)}`);
      }
    }
  }
}

describe('JsonlStore: close and reopen', () => {
  it('gives the same tree, the same labels and the same context at every entry', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        const file = join(dir, `s${runs++}.jsonl`);
        const log = createSessionLog(await JsonlStore.open(file, { fsync: 'never' }));
        await play(log, ops);
        await log.close();
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
        const file = join(dir, `cut${runs++}.jsonl`);
        const store = await JsonlStore.open(file, { fsync: 'never' });
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
    const file = join(dir, 'cut-write.jsonl');
    const store = await JsonlStore.open(file);
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
