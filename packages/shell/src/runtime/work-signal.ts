import { guardListeners } from './guard-listeners.js';

/**
 * The abort signal of one piece of work the shell hands on (a model attempt, a tool call, a
 * compaction). It
 * aborts when the turn's signal does, with the turn's reason, and when the shell stops the work
 * itself (`stop`, or at its time limit, whose timer `end` clears); once the work has ended
 * (`end`), the turn's abort no longer reaches it. A listener the work adds to it that throws
 * (or rejects) is reported to `listenerFailed` instead of ending the process (see `guardListeners`).
 */
export interface WorkSignal {
  readonly signal: AbortSignal;
  /** Stops the work with `reason` (the first reason given stays). */
  stop(reason: unknown): void;
  /** The work has ended: a later abort of the turn no longer reaches its signal. */
  end(): void;
}

/** A time limit on the work: past `ms` (undefined, no limit) it is stopped with a `TimeoutError` saying `message`. */
export interface WorkLimit {
  readonly ms: number | undefined;
  readonly message: string;
}

/**
 * `AbortSignal.any([turn, limit])` would give the same signal, but in Node every joined signal is
 * tied to its sources by weak references both ways, and making one cost tens of microseconds
 * here, about a sixth of a model call that does nothing (see docs/performance.md). One listener on the turn's signal,
 * removed when the work ends, does the job.
 */
export function workSignal(turn: AbortSignal, listenerFailed: (error: unknown) => void, limit?: WorkLimit): WorkSignal {
  const controller = new AbortController();
  const signal = guardListeners(controller.signal, listenerFailed);
  const follow = () => controller.abort(turn.reason);
  if (turn.aborted) follow();
  else turn.addEventListener('abort', follow, { once: true });
  // Cleared when the work ends: `AbortSignal.timeout` would keep a timer pending for the whole limit.
  const timer = limit?.ms === undefined ? undefined : setTimeout(() => controller.abort(new DOMException(limit.message, 'TimeoutError')), limit.ms);
  return {
    signal,
    stop: (reason) => controller.abort(reason),
    end: () => {
      clearTimeout(timer);
      turn.removeEventListener('abort', follow);
    },
  };
}
