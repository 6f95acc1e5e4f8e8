import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { workSignal } from './work-signal.js';

const ignore = () => {};

describe('workSignal', () => {
  it("aborts with the turn's reason at once, in the turn's abort", () => {
    const turn = new AbortController();
    const work = workSignal(turn.signal, ignore);
    const seen: unknown[] = [];
    turn.signal.addEventListener('abort', () => seen.push(work.signal.aborted));
    turn.abort('the host said stop');
    expect(work.signal.reason).toBe('the host said stop');
    // A listener of the turn registered after the work started already sees the work stopped.
    expect(seen).toEqual([true]);
  });

  it('starts aborted under a turn that is aborted already', () => {
    const turn = new AbortController();
    turn.abort('too late');
    const work = workSignal(turn.signal, ignore);
    expect(work.signal.aborted).toBe(true);
    expect(work.signal.reason).toBe('too late');
  });

  it("is stopped by the shell without the turn's signal hearing of it; the first reason stays", () => {
    const turn = new AbortController();
    const work = workSignal(turn.signal, ignore);
    work.stop('time is up');
    turn.abort('later');
    expect(work.signal.reason).toBe('time is up');
    expect(turn.signal.reason).toBe('later');
  });

  it("is no longer reached by the turn's abort once the work ended, and leaves no listener behind", () => {
    const turn = new AbortController();
    const works = [workSignal(turn.signal, ignore), workSignal(turn.signal, ignore)];
    for (const work of works) work.end();
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    turn.abort('after the work');
    expect(works.map((w) => w.signal.aborted)).toEqual([false, false]);
  });

  it('stops the work at its time limit with a TimeoutError, and not once the work ended', async () => {
    const turn = new AbortController();
    const late = workSignal(turn.signal, ignore, { ms: 5, message: 'the work did not finish within 5 ms' });
    const ended = workSignal(turn.signal, ignore, { ms: 5, message: 'never' });
    ended.end();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(late.signal.reason).toMatchObject({ name: 'TimeoutError', message: 'the work did not finish within 5 ms' });
    expect(ended.signal.aborted).toBe(false);
    expect(workSignal(turn.signal, ignore, { ms: undefined, message: 'no limit' }).signal.aborted).toBe(false);
  });
});
