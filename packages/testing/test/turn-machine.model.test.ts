import { describe, expect, it } from 'vitest';
import { parseEvent, start, step, type TurnSnapshot } from '@tiller/core';
import { transitionsTaken, turnMachineStates, turnMachineTransitions } from '../src/coverage.js';
import { TURN_MODEL_CONFIG, turnModelInput, turnModelPaths, type ModelPath } from './core-model.js';
import { stepViolations } from './turn-invariants.js';

function stateIds(value: TurnSnapshot['value']): string[] {
  if (typeof value === 'string') return ['turn', `turn.${value}`];
  return Object.entries(value).flatMap(([parent, child]) => ['turn', `turn.${parent}`, `turn.${parent}.${String(child)}`]);
}

/** Drives a model path through `step`, checking each step; returns the transitions and states it took. */
function drive(path: ModelPath) {
  let snapshot = start(TURN_MODEL_CONFIG);
  const transitions = new Set<string>();
  const states = new Set(stateIds(snapshot.value));
  for (const { label, value } of path.steps) {
    if (label === 'xstate.init') continue;
    const input = turnModelInput(snapshot, label);
    for (const t of transitionsTaken(snapshot, parseEvent(input))) transitions.add(t);
    const result = step(snapshot, input);
    expect(result.snapshot.value, `after ${label}`).toEqual(value);
    expect(stepViolations(snapshot, result.snapshot, result.effects), `after ${label}`).toEqual([]);
    snapshot = result.snapshot;
    for (const id of stateIds(snapshot.value)) states.add(id);
  }
  return { transitions, states };
}

const simple = turnModelPaths('simple');
const transitions = turnModelPaths('transitions');

describe('the turn machine, model-based', () => {
  it.each(simple.map((p) => [p.steps.map((s) => s.label).join(' > '), p] as const))('simple path %s', (_name, path) => {
    drive(path);
  });

  it.each(transitions.map((p) => [p.steps.map((s) => s.label).join(' > '), p] as const))('transition path %s', (_name, path) => {
    drive(path);
  });

  it('covers every state and every transition of the definition', () => {
    const taken = new Set<string>();
    const visited = new Set<string>();
    for (const path of [...simple, ...transitions]) {
      const { transitions: t, states } = drive(path);
      for (const x of t) taken.add(x);
      for (const s of states) visited.add(s);
    }
    expect(turnMachineStates().filter((s) => !visited.has(s))).toEqual([]);
    expect(turnMachineTransitions().filter((t) => !taken.has(t))).toEqual([]);
    expect(turnMachineTransitions().length).toBeGreaterThan(20);
  });
});
