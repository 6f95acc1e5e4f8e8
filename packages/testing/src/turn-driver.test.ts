import { describe, expect, it } from 'vitest';
import { createTurnDriver } from './turn-driver.js';

describe('createTurnDriver checks its config and options', () => {
  it.each([
    // Taken without a word: the turn ran with 25 iterations.
    ['a misspelt config key', () => createTurnDriver({ maxIteration: 3 } as never), /^createTurnDriver: invalid config:\n✖ Unrecognized key: "maxIteration"$/],
    // Taken, and the first step failed on a snapshot that is none.
    ['a snapshot that is none', () => createTurnDriver({}, { snapshot: 42 } as never), /^createTurnDriver: invalid options:\n✖ expected a turn snapshot \(start\(config\) or driver\.snapshot\)\n  → at snapshot$/],
    ['a clock that starts at -1', () => createTurnDriver({}, { clockStart: -1 }), /^createTurnDriver: invalid options:[\s\S]*→ at clockStart$/],
    ['an unknown option', () => createTurnDriver({}, { clock: 0 } as never), /^createTurnDriver: invalid options:\n✖ Unrecognized key: "clock"$/],
  ])('refuses %s, naming it', (_, make, said) => {
    expect(make).toThrow(TypeError);
    expect(make).toThrow(said);
  });

  it('still drives a turn from a good config, and from another driver\'s snapshot', () => {
    const first = createTurnDriver({ maxIterations: 2 });
    first.startTurn('hi');
    const second = createTurnDriver({}, { snapshot: first.snapshot, clockStart: 5 });
    expect(second.snapshot.value).toBe('steering');
    expect(second.snapshot.context.maxIterations).toBe(2);
    expect(second.now()).toBe('2026-01-01T00:00:05.000Z');
  });
});
