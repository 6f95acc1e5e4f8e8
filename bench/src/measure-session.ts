/**
 * Times every operation on the sessions of one size, Tiller beside pi (or a floor) round-robin,
 * and prints the rows as JSON. Run by bench/run.ts in a process of its own per size, so that one
 * size's heap does not slow the next one's garbage collection.
 */
import { readFileSync } from 'node:fs';
import { replay, start, step, type Entry, type TurnSnapshot } from '@tiller/core';
import { createTokenLedger, DEFAULT_COMPACTION_SETTINGS, prepareCompaction, shouldCompact } from '@tiller/compaction';
import { createSessionLog, JsonlStore, resumeContext } from '@tiller/session';
import { createMachine, initialTransition, transition } from 'xstate';
import type { Measurement } from './measurement.js';
import { measure, type MeasureOptions } from './measure.js';
import { median } from './median.js';
import { pi, piOpen } from './pi.js';
import { recordTurns } from './record-turns.js';
import type { BenchSession } from './sessions.js';

/** The window the boundary decision is made against (a 200k-token model). */
const CONTEXT_WINDOW = 200_000;
/** Scripted turns in the journal that `step` and `replay` are timed over (`EVENTS_PER_TURN` inputs each). */
const TURNS = 50;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('measure-size.ts needs node --expose-gc (bench/run.ts passes it)');

/** Every timed run starts from a collected heap: one task's garbage is not the next one's pause. */
function repetitions(size: number): MeasureOptions {
  if (size >= 100_000) return { warmup: 1, runs: 5, settle: gc };
  if (size >= 10_000) return { warmup: 2, runs: 9, settle: gc };
  return { warmup: 3, runs: 15, settle: gc };
}

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
    reps,
  );
  ms('open', open.tiller, 'pi', open.pi);
  ms('open-floor', open.tiller, 'floor: split + JSON.parse', open.floor);

  const log = await tillerOpen(tillerFile);
  const opened = piOpen(readFileSync(piFile, 'utf8'));
  const path = log.path();
  if (path.length !== size || opened.entries.length !== size) throw new Error(`expected ${size} entries, Tiller has ${path.length}, pi ${opened.entries.length}`);

  const context = await measure(
    { tiller: () => log.context(), pi: () => pi.buildSessionContext(opened.entries, opened.leafId, opened.byId) },
    reps,
  );
  ms('context', context.tiller, 'pi', context.pi);

  const prepare = await measure(
    { tiller: () => prepareCompaction(path, DEFAULT_COMPACTION_SETTINGS), pi: () => pi.prepareCompaction(opened.entries, pi.settings) },
    reps,
  );
  ms('prepare', prepare.tiller, 'pi', prepare.pi);

  // At a boundary pi estimates over the messages it holds; Tiller's ledger has followed every append.
  const messages = pi.buildSessionContext(opened.entries, opened.leafId, opened.byId).messages;
  const ledger = createTokenLedger(path);
  const decision = await measure(
    {
      tiller: () => shouldCompact(ledger.tokens, CONTEXT_WINDOW, DEFAULT_COMPACTION_SETTINGS),
      pi: () => pi.shouldCompact(pi.estimateContextTokens(messages).tokens, CONTEXT_WINDOW, pi.settings),
    },
    { ...reps, batch: 1000 },
  );
  const us = (runs: number[]) => median(runs) * 1000;
  rows.push({ operation: 'decision', size, unit: 'us', tiller: us(decision.tiller), reference: { name: 'pi', value: us(decision.pi) } });

  const resume = await measure(
    {
      tiller: () => resumeContext(compactedFile),
      full: async () => (await tillerOpen(compactedFile)).context(),
      floor: () => floorParse(compactedFile),
    },
    reps,
  );
  ms('resume', resume.tiller, 'floor: split + JSON.parse', resume.floor);
  ms('open-compacted', resume.full, 'floor: split + JSON.parse', resume.floor);

  rows.push(...(await measureStep(size, path, reps)));
  return rows;
}

/** `step` per input over the session's entries, beside a bare `transition()` of a two-state machine. */
async function measureStep(size: number, entries: Entry[], reps: MeasureOptions): Promise<Measurement[]> {
  const starts = await measure({ start: () => start({ entries }) }, reps);
  const first = start({ entries });
  const events = recordTurns(first, TURNS);
  const toggle = createMachine({ initial: 'a', states: { a: { on: { go: 'b' } }, b: { on: { go: 'a' } } } });
  let bare = initialTransition(toggle)[0];
  const go = { type: 'go' } as const;
  // A step is short and its cost settles only after many: warm up longer than the file operations.
  const samples = await measure(
    {
      tiller: () => {
        let snapshot: TurnSnapshot = first;
        for (const event of events) snapshot = step(snapshot, event).snapshot;
        return snapshot;
      },
      transition: () => {
        for (let i = 0; i < events.length; i++) bare = transition(toggle, bare, go)[0];
        return bare;
      },
    },
    { warmup: 10, runs: 15, settle: gc },
  );
  const perEvent = (runs: number[]) => (median(runs) / events.length) * 1000;
  const throughput = await measure({ replay: () => replay({ entries }, events) }, reps);
  const replayMs = median(throughput.replay);
  return [
    { operation: 'step', size, unit: 'us', tiller: perEvent(samples.tiller), reference: { name: 'bare transition()', value: perEvent(samples.transition) } },
    { operation: 'start', size, unit: 'ms', tiller: median(starts.start) },
    { operation: 'replay', size, unit: 'events/s', tiller: (events.length / replayMs) * 1000 },
  ];
}

const session = JSON.parse(process.argv[2] ?? '') as BenchSession;
process.stdout.write(JSON.stringify(await measureSize(session)));
