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

describe('a driver started from a snapshot', () => {
  // Each helper answers the effect the turn waits on; a driver made from a snapshot used to know of
  // none until its own first step, so `compactionDone()` said the turn waited on nothing.
  const parked = {
    maybe_compact: () => {
      const d = createTurnDriver();
      d.startTurn('hi');
      return d;
    },
    call_llm: () => {
      const d = createTurnDriver();
      d.startTurn('hi');
      d.compactionDone();
      return d;
    },
    run_tools: () => {
      const d = parked.call_llm();
      d.toolCalls({ id: 'c1', name: 'read', args: { path: 'a' } }, { id: 'c2', name: 'write' });
      return d;
    },
    request_approval: () => {
      const d = parked.run_tools();
      d.approvalNeeded(['c2']);
      return d;
    },
  };

  it.each(Object.keys(parked) as Array<keyof typeof parked>)('knows the %s effect the turn waits on, as it was issued', (type) => {
    const first = parked[type]();
    const second = createTurnDriver({}, { snapshot: first.snapshot, clockStart: 50 });
    expect(second.pending()?.type).toBe(type);
    expect(second.pending()).toEqual(first.pending());
  });

  it('answers that effect, and the turn goes on as it would have', () => {
    const first = parked.request_approval();
    const second = createTurnDriver({}, { snapshot: first.snapshot, clockStart: 50 });
    second.approvalDecided([{ toolCallId: 'c2', decision: 'allow' }]);
    expect(second.snapshot.value).toEqual({ tools: 'running' });
    second.toolsDone();
    expect(second.snapshot.value).toBe('steering');
    second.compactionDone();
    expect(second.pending()?.type).toBe('call_llm');
  });

  it('knows the turn waits on nothing when the snapshot is idle', () => {
    const first = parked.call_llm();
    first.reply('done');
    expect(createTurnDriver({}, { snapshot: first.snapshot }).pending()).toBeUndefined();
  });
});
