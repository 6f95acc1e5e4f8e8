import type { AgentEvent, AgentListener } from '../agent/agent-event.js';
import { now } from '../clock.js';
import { describeThrown } from '../describe-thrown.js';
import { fireAndReport } from './fire-and-report.js';

/** Fans events out to listeners and to async iterators; a listener that fails does not stop the turn. */
export interface EventHub {
  publish(event: AgentEvent): void;
  subscribe(listener: AgentListener): () => void;
  /** Every event published from now on, until `close`. */
  iterate(): AsyncIterableIterator<AgentEvent>;
  close(): void;
}

/**
 * A listener's failure (a throw, or the rejection of the promise an async listener returned) is
 * published as the event `reportOf` makes of it. A listener that fails again on that report, or on
 * any report that descends from its own failure, is not reported again: one that fails on every
 * event would otherwise hear of its own failure and fail again, without end. Another listener's
 * failure on a report is reported as any other.
 */
export function createEventHub(reportOf: (error: unknown) => AgentEvent): EventHub {
  const listeners = new Set<AgentListener>();
  const iterators = new Set<{ buffer: AgentEvent[]; wake: (() => void) | undefined }>();
  let closed = false;
  /** For each report of a failure: the listeners whose failures it descends from. */
  const failuresBehind = new WeakMap<AgentEvent, ReadonlySet<AgentListener>>();

  const failed = (listener: AgentListener, event: AgentEvent, error: unknown) => {
    const behind = failuresBehind.get(event);
    if (behind?.has(listener)) return;
    const report = reportOf(error);
    failuresBehind.set(report, new Set(behind).add(listener));
    publish(report);
  };

  const publish = (event: AgentEvent) => {
    // A copy, so a listener that subscribes or unsubscribes during delivery changes the next event's list, not this one's.
    for (const listener of [...listeners]) fireAndReport(() => listener(event), (error) => failed(listener, event, error));
    for (const it of iterators) {
      it.buffer.push(event);
      it.wake?.();
    }
  };

  return {
    publish,
    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError(`subscribe: the listener must be a function, got ${listener === null ? 'null' : typeof listener}`);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    iterate() {
      const state: { buffer: AgentEvent[]; wake: (() => void) | undefined } = { buffer: [], wake: undefined };
      iterators.add(state);
      const iterator: AsyncIterableIterator<AgentEvent> = {
        async next() {
          while (state.buffer.length === 0) {
            if (closed || !iterators.has(state)) return { done: true, value: undefined };
            await new Promise<void>((resolve) => (state.wake = resolve));
            state.wake = undefined;
          }
          return { done: false, value: state.buffer.shift()! };
        },
        async return() {
          iterators.delete(state);
          state.wake?.();
          return { done: true, value: undefined };
        },
        [Symbol.asyncIterator]() {
          return iterator;
        },
      };
      return iterator;
    },
    close() {
      closed = true;
      for (const it of iterators) it.wake?.();
    },
  };
}

/** The event that tells listeners another listener failed. */
export function listenerFailure(error: unknown): AgentEvent {
  return { type: 'shell.error', where: 'listener', message: describeThrown(error), at: now() };
}
