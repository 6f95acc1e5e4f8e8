import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortable } from './abortable.js';

describe('abortable', () => {
  it('gives the result of work that finishes first, and the reason of a signal that aborts first', async () => {
    expect(await abortable(Promise.resolve('done'), new AbortController().signal)).toBe('done');
    const controller = new AbortController();
    const never = abortable(new Promise(() => {}), controller.signal);
    controller.abort('stop');
    await expect(never).rejects.toBe('stop');
  });

  it('keeps no listener on the signal once it settled, whichever way', async () => {
    const turn = new AbortController();
    turn.signal.addEventListener('abort', () => undefined);
    expect(await abortable(Promise.resolve(1), turn.signal)).toBe(1);
    await expect(abortable(Promise.reject(new Error('failed')), turn.signal)).rejects.toThrow('failed');
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);

    const stopped = abortable(new Promise(() => {}), turn.signal);
    turn.abort('stop');
    await expect(stopped).rejects.toBe('stop');
    // The host's own listener is all that is left.
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(1);
  });

  it('leaves no unhandled rejection when work fails after the signal aborted', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const controller = new AbortController();
      controller.abort('stop');
      let fail!: (error: Error) => void;
      const work = new Promise((_, reject) => (fail = reject));
      await expect(abortable(work, controller.signal)).rejects.toBe('stop');
      fail(new Error('failed late'));
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
