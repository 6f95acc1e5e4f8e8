/**
 * A tool call's own abort signal. It is made only when the tool reads it, since most tools never
 * do; until the call has its outcome the turn's abort reaches it, and a stop (the call's timeout)
 * aborts it now or, if the tool reads it later, from the start. A class because it is its own
 * abort listener: nothing per call is allocated for listening.
 */
export class CallSignal {
  private own: AbortController | undefined;
  private stopped: { reason: unknown } | undefined;
  private released = false;

  constructor(private readonly turn: AbortSignal) {}

  get signal(): AbortSignal {
    if (!this.own) {
      this.own = new AbortController();
      if (this.stopped) this.own.abort(this.stopped.reason);
      else if (this.turn.aborted) this.own.abort(this.turn.reason);
      else if (!this.released) this.turn.addEventListener('abort', this, { once: true });
    }
    return this.own.signal;
  }

  /** Aborts the call's signal with `reason` (the first reason given stays). */
  stop(reason: unknown): void {
    this.stopped ??= { reason };
    this.own?.abort(this.stopped.reason);
  }

  /** The call has its outcome: a later abort of the turn no longer reaches the tool. */
  release(): void {
    this.released = true;
    if (this.own) this.turn.removeEventListener('abort', this);
  }

  /** The turn's abort, while the call runs. */
  handleEvent(): void {
    this.stop(this.turn.reason);
  }
}
