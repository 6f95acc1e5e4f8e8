import type { Entry } from '@tiller/core';
import fc from 'fast-check';
import { createSessionLog, JsonlStore, type SessionLog } from '../src/index.js';
import { assistantEntry, AT, userEntry } from './entries.js';

/** Random session histories for property tests: appends, branches, new roots, labels, compactions. */
export type Op =
  | { op: 'append'; count: number; text: string }
  | { op: 'branch'; pick: number }
  | { op: 'root' }
  | { op: 'label'; pick: number; label: string }
  | { op: 'compact'; pick: number };

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('append' as const), count: fc.integer({ min: 1, max: 3 }), text: fc.string({ unit: 'grapheme', maxLength: 12 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('branch' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('root' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('label' as const), pick: fc.nat(), label: fc.string({ maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('compact' as const), pick: fc.nat() }) },
);

export async function play(log: SessionLog, ops: readonly Op[]): Promise<void> {
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

/** Plays `ops` into a new session file (no fsync: tests reopen it, nothing crashes) and closes it. */
export async function recordSession(file: string, ops: readonly Op[]): Promise<SessionLog> {
  const log = createSessionLog(await JsonlStore.open(file, { fsync: 'never', create: true }));
  await play(log, ops);
  await log.close();
  return log;
}
