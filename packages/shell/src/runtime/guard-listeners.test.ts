import { describe, expect, it } from 'vitest';
import { guardListeners } from './guard-listeners.js';

// The process-level proof (a throw from a listener would end the host) runs in child processes:
// test/reliability/throwing-abort-listener.test.ts. Here: what a listener that does not fail sees.

function guarded() {
  const controller = new AbortController();
  const failures: unknown[] = [];
  const signal = guardListeners(controller.signal, (error) => failures.push(error));
  return { controller, signal, failures };
}

describe('guardListeners', () => {
  it('calls listeners in the order they were added, with the event and the signal as this, once each for once', () => {
    const { controller, signal } = guarded();
    const seen: string[] = [];
    signal.addEventListener('abort', function (this: unknown, event) {
      seen.push(`first ${event.type} ${this === signal}`);
    });
    signal.onabort = (event) => seen.push(`handler ${event.type}`);
    signal.addEventListener('abort', { handleEvent: (event) => seen.push(`object ${event.type}`) }, { once: true });
    controller.abort('stop');
    expect(seen).toEqual(['first abort true', 'handler abort', 'object abort']);
    expect(signal.reason).toBe('stop');
  });

  it('removes a listener given the function that was added, and a second add of it is one listener', () => {
    const { controller, signal } = guarded();
    let calls = 0;
    const listener = () => calls++;
    signal.addEventListener('abort', listener);
    signal.addEventListener('abort', listener);
    const removed = () => calls++;
    signal.addEventListener('abort', removed);
    signal.removeEventListener('abort', removed);
    controller.abort();
    expect(calls).toBe(1);
  });

  it('onabort reads back what was set; a replaced handler keeps its place, null removes it', () => {
    const { controller, signal } = guarded();
    const seen: string[] = [];
    const first = () => seen.push('first');
    signal.onabort = first;
    expect(signal.onabort).toBe(first);
    signal.addEventListener('abort', () => seen.push('listener'));
    signal.onabort = () => seen.push('second');
    controller.abort();
    expect(seen).toEqual(['second', 'listener']);
    const other = guarded();
    other.signal.onabort = () => seen.push('never');
    other.signal.onabort = null;
    expect(other.signal.onabort).toBeNull();
    other.controller.abort();
    expect(seen).toEqual(['second', 'listener']);
  });

  it('hands a throw and a rejection to failed, and the listeners after a failing one still run', async () => {
    const { controller, signal, failures } = guarded();
    const seen: string[] = [];
    signal.addEventListener('abort', () => {
      throw new Error('sync cleanup failed');
    });
    signal.onabort = async () => {
      throw new Error('async cleanup failed');
    };
    signal.addEventListener('abort', () => seen.push('after'));
    controller.abort();
    await Promise.resolve();
    expect(seen).toEqual(['after']);
    expect(failures.map((e) => (e as Error).message)).toEqual(['sync cleanup failed', 'async cleanup failed']);
  });

  it('stays a real AbortSignal, and refuses a listener that is neither a function nor an object as before', async () => {
    const { controller, signal } = guarded();
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(() => signal.addEventListener('abort', 42 as never)).toThrow(TypeError);
    // What fetch, Node's streams and AbortSignal.any read of it work as on any signal.
    const joined = AbortSignal.any([signal]);
    expect(signal.aborted).toBe(false);
    const stop = new Error('stop');
    controller.abort(stop);
    expect([signal.aborted, signal.reason, joined.aborted, joined.reason]).toEqual([true, stop, true, stop]);
    expect(() => signal.throwIfAborted()).toThrow(stop);
    // A signal the shell did not guard is left as it was.
    const plain = new AbortController().signal;
    expect(Object.getPrototypeOf(plain)).toBe(AbortSignal.prototype);
  });
});
