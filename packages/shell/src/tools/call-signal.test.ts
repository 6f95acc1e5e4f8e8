import { describe, expect, it } from 'vitest';
import { CallSignal } from './call-signal.js';

describe('CallSignal', () => {
  it('follows the turn while the call runs, and not after it is released', () => {
    const turn = new AbortController();
    const running = new CallSignal(turn.signal);
    const done = new CallSignal(turn.signal);
    const seen = running.signal;
    const kept = done.signal;
    done.release();
    turn.abort('the host aborted');
    expect(seen.aborted).toBe(true);
    expect(seen.reason).toBe('the host aborted');
    expect(kept.aborted).toBe(false);
  });

  it('is aborted from the start when first read after a stop or after the turn aborted', () => {
    const turn = new AbortController();
    const timedOut = new CallSignal(turn.signal);
    timedOut.stop('time is up');
    timedOut.stop('a later reason');
    expect(timedOut.signal.aborted).toBe(true);
    expect(timedOut.signal.reason).toBe('time is up');
    const late = new CallSignal(turn.signal);
    turn.abort('the host aborted');
    expect(late.signal.reason).toBe('the host aborted');
  });
});
