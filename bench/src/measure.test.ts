import { describe, expect, it } from 'vitest';
import { lastResult, measure } from './measure.js';

/** A clock that advances only when a task says it took time. */
function fakeClock() {
  let t = 0;
  return { now: () => t, spend: (ms: number) => (t += ms) };
}

describe('measure', () => {
  it('warms up untimed, then gives one sample per run for each task', async () => {
    const clock = fakeClock();
    const calls: string[] = [];
    const samples = await measure(
      {
        a: () => (calls.push('a'), clock.spend(2)),
        b: () => (calls.push('b'), clock.spend(5)),
      },
      { warmup: 1, runs: 3, now: clock.now },
    );
    expect(samples).toEqual({ a: [2, 2, 2], b: [5, 5, 5] });
    // Round-robin: the tasks alternate run by run, warm-up included.
    expect(calls).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
  });

  it('in a rotating order, starts each timed round one task further on, and tells settle which task comes next', async () => {
    const calls: string[] = [];
    const settled: string[] = [];
    const samples = await measure(
      { a: () => calls.push('a'), b: () => calls.push('b'), c: () => calls.push('c') },
      { warmup: 1, runs: 4, order: 'rotating', settle: (name) => void settled.push(name) },
    );
    // The warm-up round in the tasks' order, then a, b and c first in turn; a sample per run of each still.
    expect(calls.join('')).toBe('abc' + 'abc' + 'bca' + 'cab' + 'abc');
    expect(settled.join('')).toBe('abcbcacababc');
    expect(Object.values(samples).map((runs) => runs.length)).toEqual([4, 4, 4]);
  });

  it('divides a batch by its size', async () => {
    const clock = fakeClock();
    let n = 0;
    const samples = await measure({ op: () => (n++, clock.spend(3)) }, { warmup: 0, runs: 2, batch: 10, now: clock.now });
    expect(samples.op).toEqual([3, 3]);
    expect(n).toBe(20);
  });

  it('keeps the last result where the engine cannot drop it', async () => {
    await measure({ op: () => 'kept' }, { warmup: 0, runs: 1 });
    expect(lastResult()).toBe('kept');
  });

  it('refuses a count that is not a positive integer', async () => {
    await expect(measure({ op: () => 0 }, { warmup: 0, runs: 0 })).rejects.toThrow(/runs must be a positive integer, got 0/);
    await expect(measure({ op: () => 0 }, { warmup: 0, runs: 1, batch: 0.5 })).rejects.toThrow(/batch must be a positive integer, got 0.5/);
  });

  it('times an async task until it settles and keeps its value', async () => {
    const clock = fakeClock();
    const samples = await measure(
      { op: () => new Promise((resolve) => setTimeout(() => resolve((clock.spend(4), 'done')), 1)) },
      { warmup: 0, runs: 2, now: clock.now },
    );
    expect(samples.op).toEqual([4, 4]);
    expect(lastResult()).toBe('done');
  });

  it('settles untimed before every timed run, with the previous result already dropped', async () => {
    const clock = fakeClock();
    const seen: unknown[] = [];
    const samples = await measure(
      { op: () => (clock.spend(1), 'result') },
      {
        warmup: 1,
        runs: 2,
        now: clock.now,
        settle: () => {
          seen.push(lastResult());
          clock.spend(100);
        },
      },
    );
    expect(samples.op).toEqual([1, 1]);
    expect(seen).toEqual([undefined, undefined]);
  });

  it('awaits an async settle before the clock starts, and hands every result to after, untimed', async () => {
    const clock = fakeClock();
    const order: string[] = [];
    let n = 0;
    const samples = await measure(
      { op: () => (order.push('run'), clock.spend(2), ++n) },
      {
        warmup: 1,
        runs: 2,
        now: clock.now,
        settle: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          order.push('settled');
          clock.spend(50);
        },
        after: async (result) => {
          order.push(`after ${String(result)}`);
          clock.spend(70);
        },
      },
    );
    expect(samples.op).toEqual([2, 2]);
    expect(order).toEqual(['run', 'after 1', 'settled', 'run', 'after 2', 'settled', 'run', 'after 3']);
  });
});
