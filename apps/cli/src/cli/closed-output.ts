import type { Io } from './command.js';

/** Why a turn stops when stdout's reader went away. */
export const OUTPUT_CLOSED = 'the output closed (its reader went away)';

/** Whether stdout's reader went away (`tiller run | head -1`), and what to do about it. */
export interface ClosedOutputWatch {
  readonly closed: boolean;
  /** What to do when it closes; run at once when it already has. Replaces what was set before. */
  whenClosed(react: () => void): void;
  stop(): void;
}

/**
 * Watches stdout from the start of a command that works with a session: the program then does not
 * end at the first failed write, so the command can stop its turn and close the session (which
 * releases its lock) first.
 */
export function watchClosedOutput(io: Io): ClosedOutputWatch {
  let closed = false;
  let react = () => undefined as void;
  const stop = io.onOutputClosed(() => {
    closed = true;
    react();
  });
  return {
    get closed() {
      return closed;
    },
    whenClosed(next) {
      react = next;
      if (closed) next();
    },
    stop,
  };
}
