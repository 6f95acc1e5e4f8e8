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

  it('listens to several signals: the first to abort gives its reason, and none keeps a listener once it settled', async () => {
    const turn = new AbortController();
    const limit = new AbortController();
    const stopped = abortable(new Promise(() => {}), turn.signal, limit.signal);
    limit.abort('time is up');
    await expect(stopped).rejects.toBe('time is up');
    turn.abort('later');

    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);

    const host = new AbortController();
    host.signal.addEventListener('abort', () => undefined);
    const second = new AbortController();
    expect(await abortable(Promise.resolve(1), host.signal, second.signal)).toBe(1);
    expect(getEventListeners(host.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(second.signal, 'abort')).toHaveLength(0);
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
