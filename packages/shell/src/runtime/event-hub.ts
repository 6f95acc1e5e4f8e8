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
 * published as the event `reportOf` makes of it. Each listener's failure is reported at most once
 * for an event the hub was handed, the reports that descend from that event included: one that
 * fails on every event would otherwise hear of its own failure and fail again without end, and
 * several would report one another's failures without end.
 */
export function createEventHub(reportOf: (error: unknown) => AgentEvent): EventHub {
  const listeners = new Set<AgentListener>();
  const iterators = new Set<{ buffer: AgentEvent[]; wake: (() => void) | undefined }>();
  let closed = false;
  /** For an event and every report that descends from it: the listeners whose failure was reported. */
  const reportedFor = new WeakMap<AgentEvent, Set<AgentListener>>();

  const failed = (listener: AgentListener, event: AgentEvent, error: unknown) => {
    let reported = reportedFor.get(event);
    if (!reported) reportedFor.set(event, (reported = new Set()));
    if (reported.has(listener)) return;
    reported.add(listener);
    const report = reportOf(error);
    reportedFor.set(report, reported);
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
