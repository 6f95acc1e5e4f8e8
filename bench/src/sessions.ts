import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Entry } from '@tiller/core';
import { compact, compactionEntry, DEFAULT_COMPACTION_SETTINGS, prepareCompaction, type Summarizer } from '@tiller/compaction';
import { importPiSession, JsonlStore } from '@tiller/session';
import { scaleSession, type PiLine } from './scale-session.js';
import { sourceSession } from './source-session.js';

/** The files of one session size: the same conversation for pi and for Tiller. */
export interface BenchSession {
  /** Entries in the session. */
  size: number;
  /** pi's format 3. */
  piFile: string;
  /** Tiller's session file (format 2) of the imported pi file. */
  tillerFile: string;
  /** The Tiller session with a compaction appended at its end, as right after compacting. */
  compactedFile: string;
}

const AT = '2026-01-01T00:00:00.000Z';

/** Writes a summary without a model: generating the files must not depend on a network. */
const fixedSummarizer: Summarizer = {
  model: 'bench/fixed',
  summarize: async () => ({ text: '## Goal\nThe benchmark session, summarized.\n' }),
};

async function writeTillerFile(path: string, entries: readonly Entry[]): Promise<void> {
  await rm(path, { force: true });
  const store = await JsonlStore.open(path, { create: { id: 'bench', createdAt: AT }, fsync: 'never' });
  await store.append(entries);
  await store.close();
}

/**
 * Writes the benchmark sessions into `dir`: the source session (the large recorded pi session,
 * or its generated stand-in; see `sourceSession`) at its own length (with fresh ids, in pi's
 * current format) and scaled by repetition to each of `sizes`.
 */
export async function writeSessions(dir: string, sizes: readonly number[], source: readonly PiLine[] = sourceSession().lines): Promise<BenchSession[]> {
  await mkdir(dir, { recursive: true });
  const out: BenchSession[] = [];
  for (const requested of [source.length, ...sizes]) {
    const piFile = join(dir, `pi-${requested}.jsonl`);
    const header = { type: 'session', version: 3, id: `bench-${requested}`, timestamp: AT, cwd: '/bench' };
    const piText = [header, ...scaleSession(source, requested)].map((line) => JSON.stringify(line)).join('\n') + '\n';
    await writeFile(piFile, piText);

    const entries = importPiSession(piText, { source: piFile }).entries;
    const tillerFile = join(dir, `tiller-${requested}.jsonl`);
    await writeTillerFile(tillerFile, entries);

    const preparation = prepareCompaction(entries, DEFAULT_COMPACTION_SETTINGS);
    if (!preparation) throw new Error(`the ${requested}-entry session has nothing to compact`);
    const result = await compact(preparation, fixedSummarizer);
    const compaction = compactionEntry(result, { id: 'bench-compaction', parentId: entries.at(-1)!.id, at: AT });
    const compactedFile = join(dir, `tiller-${requested}-compacted.jsonl`);
    await writeTillerFile(compactedFile, [...entries, compaction]);
    out.push({ size: requested, piFile, tillerFile, compactedFile });
  }
  return out;
}
