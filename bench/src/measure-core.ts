/**
 * Times the costs that must not grow with the session, at every size in one process so that sizes
 * differ only in the session: the core's `start`, `step` per input beside a bare XState
 * `transition()`, and `replayFrom` a started snapshot; then the should-compact decision beside pi's. Each size's session
 * is the start of the largest one (the sessions repeat the same recording), so one file serves all.
 * Prints the rows as JSON.
 */
import { readFileSync } from 'node:fs';
import { createTokenLedger, DEFAULT_COMPACTION_SETTINGS, shouldCompact } from '@tiller/compaction';
import { replayFrom, start, step, type Entry, type TurnSnapshot } from '@tiller/core';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { createMachine, initialTransition, transition } from 'xstate';
import type { Measurement } from './measurement.js';
import { measure, type MeasureOptions } from './measure.js';
import { median } from './median.js';
import { pairedRatio } from './paired-runs.js';
import { ONE_PASS, onePass } from './one-pass.js';
import { pi, piOpen, type PiEntry } from './pi.js';
import { EVENTS_PER_TURN, recordTurns } from './record-turns.js';
import type { BenchSession } from './sessions.js';

/** Scripted turns per timed run of `step` (`EVENTS_PER_TURN` inputs each). */
const STEP_TURNS = 10;
/** Scripted turns in the journal `replay` is timed over. */
const REPLAY_TURNS = 50;
/** The window the boundary decision is made against (a 200k-token model). */
const CONTEXT_WINDOW = 200_000;

/** `start` and `replay` take long at 100k entries; `step` is short and settles only after many runs. */
const repetitions = (size: number): MeasureOptions => (size >= 100_000 ? { warmup: 1, runs: 7 } : { warmup: 3, runs: 11 });
const STEP_REPETITIONS: MeasureOptions = { warmup: 10, runs: 41 };
const DECISION_REPETITIONS: MeasureOptions = { warmup: 3, runs: 15, batch: 1000 };

/** Microseconds per event of runs that each handled `events` events. */
const perEventOf = (samples: number[], events: number) => (median(samples) / events) * 1000;

async function measureCore(size: number, entries: Entry[]): Promise<Measurement[]> {
  const reps = repetitions(size);
  const starts = await measure({ start: () => start({ entries }), pass: () => onePass(entries) }, reps);
  const first = start({ entries });
  // One journal for all runs, each run going on where the last one stopped: stepping from the same
  // snapshot again would copy the shared entry list once per run (see AppendOnlyList).
  const runs = (STEP_REPETITIONS.warmup + STEP_REPETITIONS.runs) * STEP_TURNS;
  const journal = recordTurns(first, Math.max(runs, REPLAY_TURNS));
  const perRun = STEP_TURNS * EVENTS_PER_TURN;
  let snapshot: TurnSnapshot = first;
  let next = 0;
  const toggle = createMachine({ initial: 'a', states: { a: { on: { go: 'b' } }, b: { on: { go: 'a' } } } });
  let bare = initialTransition(toggle)[0];
  const go = { type: 'go' } as const;
  const samples = await measure(
    {
      tiller: () => {
        for (const end = next + perRun; next < end; next++) snapshot = step(snapshot, journal[next]).snapshot;
        return snapshot;
      },
      transition: () => {
        for (let i = 0; i < perRun; i++) bare = transition(toggle, bare, go)[0];
        return bare;
      },
    },
    STEP_REPETITIONS,
  );
  const perEvent = (samples: number[]) => perEventOf(samples, perRun);
  const events = journal.slice(0, REPLAY_TURNS * EVENTS_PER_TURN);
  // Throughput is the fold alone: each run replays from a snapshot started before its clock, a
  // fresh one, so no run pays for branching off a snapshot another run stepped (`start` is its own row).
  let started: TurnSnapshot | undefined;
  const replays = await measure(
    {
      replay: () => {
        const from = started ?? start({ entries });
        started = undefined;
        return replayFrom(from, events);
      },
      // The same number of bare transitions, timed round-robin with the fold: its floor in this run.
      transition: () => {
        for (let i = 0; i < events.length; i++) bare = transition(toggle, bare, go)[0];
        return bare;
      },
    },
    {
      ...reps,
      settle: () => {
        started ??= start({ entries });
      },
    },
  );
  return [
    // Run i of each task came in the same round, so a slow moment of the machine falls on both:
    // the goal is judged on the rounds' ratios, not on the ratio of two medians taken apart.
    {
      operation: 'step',
      size,
      unit: 'us',
      tiller: perEvent(samples.tiller),
      reference: { name: 'bare transition()', value: perEvent(samples.transition) },
      ratio: pairedRatio(samples.tiller, samples.transition),
    },
    { operation: 'start', size, unit: 'ms', tiller: median(starts.start), reference: { name: ONE_PASS, value: median(starts.pass) } },
    {
      operation: 'replay',
      size,
      unit: 'us',
      tiller: perEventOf(replays.replay, events.length),
      reference: { name: 'bare transition()', value: perEventOf(replays.transition, events.length) },
      ratio: pairedRatio(replays.replay, replays.transition),
    },
  ];
}

/** At a boundary pi estimates over the messages it holds; Tiller's ledger has followed every append. */
async function measureDecision(size: number, entries: Entry[], piEntries: PiEntry[]): Promise<Measurement> {
  const byId = new Map(piEntries.map((e) => [e.id, e]));
  const messages = pi.buildSessionContext(piEntries, piEntries.at(-1)?.id ?? null, byId).messages;
  const ledger = createTokenLedger(entries);
  const decision = await measure(
    {
      tiller: () => shouldCompact(ledger.tokens, CONTEXT_WINDOW, DEFAULT_COMPACTION_SETTINGS),
      pi: () => pi.shouldCompact(pi.estimateContextTokens(messages).tokens, CONTEXT_WINDOW, pi.settings),
    },
    DECISION_REPETITIONS,
  );
  const us = (runs: number[]) => median(runs) * 1000;
  return { operation: 'decision', size, unit: 'us', tiller: us(decision.tiller), reference: { name: 'pi', value: us(decision.pi) } };
}

const sessions = JSON.parse(process.argv[2] ?? '') as BenchSession[];
const largest = sessions.at(-1);
if (!largest) throw new Error('usage: measure-core.ts <sessions as JSON, smallest first>');
const all = createSessionLog(await JsonlStore.open(largest.tillerFile, { readOnly: true })).path();
const rows: Measurement[] = [];
// A discarded round first: otherwise the first size measured also pays for compiling the core.
await measureCore(sessions[0]!.size, all.slice(0, sessions[0]!.size));
for (const { size } of sessions) rows.push(...(await measureCore(size, all.slice(0, size))));
// pi's copy joins the heap only now, after the core's timings.
const piAll = piOpen(readFileSync(largest.piFile, 'utf8')).entries;
// A discarded round over every size first: a decision takes tens of nanoseconds, and without it the
// size timed while the engine still compiles the closures measured up to three times the others.
for (const { size } of sessions) await measureDecision(size, all.slice(0, size), piAll.slice(0, size));
for (const { size } of sessions) rows.push(await measureDecision(size, all.slice(0, size), piAll.slice(0, size)));
process.stdout.write(JSON.stringify(rows));
