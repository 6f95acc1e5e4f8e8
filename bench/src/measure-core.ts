/**
 * Times the pure core over the session of one size: `start`, `step` per input beside a bare
 * XState `transition()`, and `replay`. Prints the rows as JSON. Run by bench/run.ts in a process of
 * its own that holds nothing but the session's entries, so the heap is the core's alone.
 */
import { replay, start, step, type Entry, type TurnSnapshot } from '@tiller/core';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { createMachine, initialTransition, transition } from 'xstate';
import type { Measurement } from './measurement.js';
import { measure, type MeasureOptions } from './measure.js';
import { median } from './median.js';
import { recordTurns } from './record-turns.js';
import type { BenchSession } from './sessions.js';

/** Scripted turns in the journal that `step` and `replay` are timed over (`EVENTS_PER_TURN` inputs each). */
const TURNS = 50;

/** `start` and `replay` take long at 100k entries; `step` is short and settles only after many runs. */
const repetitions = (size: number): MeasureOptions => (size >= 100_000 ? { warmup: 1, runs: 7 } : { warmup: 3, runs: 11 });
const STEP_REPETITIONS: MeasureOptions = { warmup: 10, runs: 41 };

async function measureCore(size: number, entries: Entry[]): Promise<Measurement[]> {
  const reps = repetitions(size);
  const starts = await measure({ start: () => start({ entries }) }, reps);
  const first = start({ entries });
  const events = recordTurns(first, TURNS);
  const toggle = createMachine({ initial: 'a', states: { a: { on: { go: 'b' } }, b: { on: { go: 'a' } } } });
  let bare = initialTransition(toggle)[0];
  const go = { type: 'go' } as const;
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
    STEP_REPETITIONS,
  );
  const perEvent = (runs: number[]) => (median(runs) / events.length) * 1000;
  const replays = await measure({ replay: () => replay({ entries }, events) }, reps);
  return [
    { operation: 'step', size, unit: 'us', tiller: perEvent(samples.tiller), reference: { name: 'bare transition()', value: perEvent(samples.transition) } },
    { operation: 'start', size, unit: 'ms', tiller: median(starts.start) },
    { operation: 'replay', size, unit: 'events/s', tiller: (events.length / median(replays.replay)) * 1000 },
  ];
}

const session = JSON.parse(process.argv[2] ?? '') as BenchSession;
const entries = createSessionLog(await JsonlStore.open(session.tillerFile, { readOnly: true })).path();
if (entries.length !== session.size) throw new Error(`expected ${session.size} entries, the session has ${entries.length}`);
process.stdout.write(JSON.stringify(await measureCore(session.size, entries)));
