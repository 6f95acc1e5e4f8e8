import type { AgentEvent, AgentListener } from '../agent/agent-event.js';

/** Fans events out to listeners and to async iterators; a listener that throws does not stop the turn. */
export interface EventHub {
  publish(event: AgentEvent): void;
  subscribe(listener: AgentListener): () => void;
  /** Every event published from now on, until `close`. */
  iterate(): AsyncIterableIterator<AgentEvent>;
  close(): void;
}

/**
 * `onListenerError` hears each listener's throw (it may publish an event that says so). A listener
 * that throws again while its own throw is being reported is not reported in turn: one that throws
 * on every event would otherwise hear of its own failure and fail again, without end. Another
 * listener's throw meanwhile is reported as any other.
 */
export function createEventHub(onListenerError: (error: unknown) => void): EventHub {
  const listeners = new Set<AgentListener>();
  const iterators = new Set<{ buffer: AgentEvent[]; wake: (() => void) | undefined }>();
  let closed = false;
  const reporting = new Set<AgentListener>();

  const report = (listener: AgentListener, error: unknown) => {
    if (reporting.has(listener)) return;
    reporting.add(listener);
    try {
      onListenerError(error);
    } finally {
      reporting.delete(listener);
    }
  };

  return {
    publish(event) {
      // A copy, so a listener that subscribes or unsubscribes during delivery changes the next event's list, not this one's.
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          report(listener, error);
        }
      }
      for (const it of iterators) {
        it.buffer.push(event);
        it.wake?.();
      }
    },
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
