import type { SessionLog } from '@tiller/session';
import { SessionBusyError } from '../errors/session-busy-error.js';

/** Which agent's turn runs on a log, across every agent of this process that shares the log object. */
const holders = new WeakMap<SessionLog, object>();

/** One agent's hold on its session log for the length of a turn. */
export interface SessionClaim {
  /** Takes the log for a turn; throws `SessionBusyError` while another agent's turn holds it. */
  take(method: string): void;
  /** Lets the log go (nothing happens when this agent does not hold it). */
  release(): void;
  /** Whether this agent holds the log: from its `prompt` until its turn's end is told. */
  held(): boolean;
}

/**
 * Two turns at once on one log would each append from where it started and fork the tree, so a
 * turn holds its log until it ends. Another process is kept out by the store (a `JsonlStore`
 * locks its file); this covers agents of one process that were given the same log.
 */
export function sessionClaim(session: SessionLog): SessionClaim {
  const me = {};
  return {
    take(method) {
      const holder = holders.get(session);
      if (holder !== undefined && holder !== me) {
        throw new SessionBusyError(`${method}: another agent's turn is running on this session log; wait until it ends (that agent's idle()), then try again`);
      }
      holders.set(session, me);
    },
    release() {
      if (holders.get(session) === me) holders.delete(session);
    },
    held: () => holders.get(session) === me,
  };
}
