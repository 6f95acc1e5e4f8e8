import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { replay, replayFrom, restoreSnapshot, serializeSnapshot, start, step, type Effect, type TurnConfig, type TurnSnapshot } from '@tiller/core';
import { turnModelInputs } from './core-model.js';
import { stepViolations } from './turn-invariants.js';

/** A choice among the inputs the model knows for the current snapshot, or junk of any shape. */
type Move = { kind: 'input'; pick: number } | { kind: 'junk'; value: unknown };

const move: fc.Arbitrary<Move> = fc.oneof(
  { weight: 8, arbitrary: fc.nat().map((pick) => ({ kind: 'input' as const, pick })) },
  { weight: 1, arbitrary: fc.anything().map((value) => ({ kind: 'junk' as const, value })) },
);
const moves = fc.array(move, { maxLength: 60 });
const config = fc.record({ maxIterations: fc.integer({ min: 0, max: 3 }) });

/** Turns moves into concrete inputs by stepping; returns the inputs and what each step gave. */
function play(cfg: TurnConfig, ms: Move[], from: TurnSnapshot = start(cfg)) {
  let snapshot = from;
  const inputs: unknown[] = [];
  const steps: Array<{ before: TurnSnapshot; after: TurnSnapshot; effects: Effect[] }> = [];
  for (const m of ms) {
    const choices = turnModelInputs(snapshot);
    const input = m.kind === 'input' ? choices[m.pick % choices.length]!.input : m.value;
    const result = step(snapshot, input);
    inputs.push(input);
    steps.push({ before: snapshot, after: result.snapshot, effects: result.effects });
    snapshot = result.snapshot;
  }
  return { inputs, steps, snapshot };
}

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('turn core properties', () => {
  afterEach(() => vi.restoreAllMocks());

  it('never throws, and keeps every invariant after every step', () => {
    fc.assert(
      fc.property(config, moves, (cfg, ms) => {
        for (const { before, after, effects } of play(cfg, ms).steps) {
          expect(stepViolations(before, after, effects)).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('replay gives what stepping one by one gives', () => {
    fc.assert(
      fc.property(config, moves, (cfg, ms) => {
        const played = play(cfg, ms);
        const replayed = replay(cfg, played.inputs);
        expect(serializeSnapshot(replayed.snapshot)).toBe(serializeSnapshot(played.snapshot));
        expect(json(replayed.effects)).toEqual(json(played.steps.flatMap((s) => s.effects)));
      }),
      { numRuns: 200 },
    );
  });

  it('holds the iteration cap: at most maxIterations tool rounds a turn, then only final calls', () => {
    fc.assert(
      fc.property(config, moves, (cfg, ms) => {
        let rounds = 0;
        for (const { effects, before } of play(cfg, ms).steps) {
          if (before.context.turn === null) rounds = 0;
          for (const effect of effects) {
            if (effect.type === 'run_tools' && !effect.decisions.length) rounds += 1;
            if (effect.type === 'call_llm') expect(effect.final).toBe(rounds >= cfg.maxIterations);
          }
          expect(rounds).toBeLessThanOrEqual(cfg.maxIterations);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('continues from a serialized snapshot exactly as if never stopped', () => {
    fc.assert(
      fc.property(config, moves, moves, (cfg, first, second) => {
        const head = play(cfg, first);
        const whole = play(cfg, second, head.snapshot);
        const resumed = play(cfg, second, restoreSnapshot(serializeSnapshot(head.snapshot)));
        expect(resumed.inputs).toEqual(whole.inputs);
        expect(serializeSnapshot(resumed.snapshot)).toBe(serializeSnapshot(whole.snapshot));
        expect(json(resumed.steps.map((s) => s.effects))).toEqual(json(whole.steps.map((s) => s.effects)));
        const replayed = replayFrom(restoreSnapshot(serializeSnapshot(head.snapshot)), whole.inputs);
        expect(serializeSnapshot(replayed.snapshot)).toBe(serializeSnapshot(whole.snapshot));
        expect(json(replayed.effects)).toEqual(json(whole.steps.flatMap((s) => s.effects)));
      }),
      { numRuns: 150 },
    );
  });

  it('never changes a snapshot it stepped from: branching from any snapshot is branching from a fresh copy', () => {
    fc.assert(
      fc.property(config, moves, fc.array(move, { minLength: 1, maxLength: 60 }), (cfg, ms, branchMoves) => {
        const run = play(cfg, ms);
        const snapshots = [...run.steps.map((s) => s.before), run.snapshot];
        const frozen = snapshots.map(serializeSnapshot);
        for (const [i, branchMove] of branchMoves.entries()) {
          const from = snapshots[i % snapshots.length]!;
          const branch = play(cfg, [branchMove], from);
          const fromCopy = step(restoreSnapshot(serializeSnapshot(from)), branch.inputs[0]);
          expect(serializeSnapshot(branch.snapshot)).toBe(serializeSnapshot(fromCopy.snapshot));
          expect(json(branch.steps[0]!.effects)).toEqual(json(fromCopy.effects));
        }
        expect(snapshots.map(serializeSnapshot)).toEqual(frozen);
      }),
      { numRuns: 150 },
    );
  });

  it('reads no clock and no random source: with them made to throw, nothing changes', () => {
    fc.assert(
      fc.property(config, moves, (cfg, ms) => {
        const normal = play(cfg, ms);
        const forbidden = () => {
          throw new Error('the core must not read this');
        };
        vi.spyOn(Date, 'now').mockImplementation(forbidden);
        vi.spyOn(Math, 'random').mockImplementation(forbidden);
        vi.spyOn(globalThis.crypto, 'randomUUID').mockImplementation(forbidden);
        try {
          const replayed = replay(cfg, normal.inputs);
          expect(serializeSnapshot(replayed.snapshot)).toBe(serializeSnapshot(normal.snapshot));
          expect(JSON.stringify(replayed.snapshot.context.lastOutcome ?? {})).not.toMatch(/must not read/);
        } finally {
          vi.restoreAllMocks();
        }
      }),
      { numRuns: 100 },
    );
  });
});
