import type { AgentEvent, AgentListener } from './agent-event.js';

/** Where the shell's own events go. */
export interface EventSink {
  /**
   * Whether anyone would see an event now (a listener or an open iterator). An event nobody can
   * see need not be built: the shell checks this first, so an agent without subscribers does not
   * pay for a timestamp and an object per event.
   */
  readonly listening: boolean;
  publish(event: AgentEvent): void;
}

/** Fans events out to listeners and to async iterators; a listener that throws does not stop the turn. */
export interface EventHub extends EventSink {
  subscribe(listener: AgentListener): () => void;
  /** Every event published from now on, until `close`. */
  iterate(): AsyncIterableIterator<AgentEvent>;
  close(): void;
}

export function createEventHub(onListenerError: (error: unknown) => void): EventHub {
  const listeners = new Set<AgentListener>();
  const iterators = new Set<{ buffer: AgentEvent[]; wake: (() => void) | undefined }>();
  let closed = false;

  return {
    get listening() {
      return listeners.size > 0 || iterators.size > 0;
    },
    publish(event) {
      // A copy, so a listener that subscribes or unsubscribes during delivery changes the next event's list, not this one's.
      if (listeners.size > 0) for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error);
        }
      }
      if (iterators.size > 0) for (const it of iterators) {
        it.buffer.push(event);
        it.wake?.();
      }
    },
    subscribe(listener) {
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
