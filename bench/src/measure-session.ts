/**
 * Times opening, resuming, building the context and preparing a compaction on the sessions of one
 * size, Tiller beside pi (or a floor) round-robin, and prints the rows as JSON. Run by bench/run.ts in a process of its own per
 * size, so that one size's heap does not slow the next one's garbage collection.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_COMPACTION_SETTINGS, prepareCompaction } from '@tiller/compaction';
import { createSessionLog, JsonlStore, resumeContext } from '@tiller/session';
import type { Measurement } from './measurement.js';
import { measure, type MeasureOptions } from './measure.js';
import { onePass } from './one-pass.js';
import { median } from './median.js';
import { pi, piOpen } from './pi.js';
import type { BenchSession } from './sessions.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('measure-session.ts needs node --expose-gc (bench/run.ts passes it)');

function repetitions(size: number): MeasureOptions {
  // At 100k a run of each task reads 100 MB or walks 100k entries: seconds of work whose median
  // five runs settle, and the rows at this size are most of the bench's time.
  if (size >= 100_000) return { warmup: 1, runs: 5 };
  if (size >= 10_000) return { warmup: 2, runs: 9 };
  return { warmup: 3, runs: 15 };
}

/**
 * Reading a file leaves hundreds of megabytes of garbage at 100k entries: each timed run of a file
 * operation starts from a collected heap, so that one task's garbage is not the next one's pause.
 * In-memory operations leave little, and a forced collection before them slows them down instead
 * (the heap is shrunk and must grow again), so they run as an application would call them.
 */
const fileRepetitions = (size: number): MeasureOptions => ({ ...repetitions(size), settle: gc });

const floorParse = (path: string): unknown[] => {
  const values: unknown[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) if (line) values.push(JSON.parse(line));
  return values;
};

const tillerOpen = async (path: string) => createSessionLog(await JsonlStore.open(path, { readOnly: true }));

async function measureSize(session: BenchSession): Promise<Measurement[]> {
  const { size, piFile, tillerFile, compactedFile } = session;
  const reps = repetitions(size);
  const rows: Measurement[] = [];
  const ms = (operation: Measurement['operation'], tiller: number[], name?: string, reference?: number[]) => {
    rows.push({ operation, size, unit: 'ms', tiller: median(tiller), ...(name && reference ? { reference: { name, value: median(reference) } } : {}) });
  };

  const open = await measure(
    { tiller: () => tillerOpen(tillerFile), pi: () => piOpen(readFileSync(piFile, 'utf8')), floor: () => floorParse(tillerFile) },
    fileRepetitions(size),
  );
  ms('open', open.tiller, 'pi', open.pi);
  ms('open-floor', open.tiller, 'floor: split + JSON.parse', open.floor);

  const resume = await measure(
    {
      tiller: () => resumeContext(compactedFile),
      full: async () => (await tillerOpen(compactedFile)).context(),
      floor: () => floorParse(compactedFile),
    },
    fileRepetitions(size),
  );
  ms('resume', resume.tiller, 'floor: split + JSON.parse', resume.floor);
  ms('open-compacted', resume.full, 'floor: split + JSON.parse', resume.floor);

  // The in-memory operations below hold both sides' copies of the session; the file operations
  // above ran before, on a small heap.
  const log = await tillerOpen(tillerFile);
  const opened = piOpen(readFileSync(piFile, 'utf8'));
  const path = log.path();
  if (path.length !== size || opened.entries.length !== size) throw new Error(`expected ${size} entries, Tiller has ${path.length}, pi ${opened.entries.length}`);

  const context = await measure(
    { tiller: () => log.context(), pi: () => pi.buildSessionContext(opened.entries, opened.leafId, opened.byId), pass: () => onePass(path) },
    reps,
  );
  ms('context', context.tiller, 'pi', context.pi);
  ms('one-pass', context.pass);

  const prepare = await measure(
    { tiller: () => prepareCompaction(path, DEFAULT_COMPACTION_SETTINGS), pi: () => pi.prepareCompaction(opened.entries, pi.settings) },
    reps,
  );
  ms('prepare', prepare.tiller, 'pi', prepare.pi);

  return rows;
}

const session = JSON.parse(process.argv[2] ?? '') as BenchSession;
process.stdout.write(JSON.stringify(await measureSize(session)));
