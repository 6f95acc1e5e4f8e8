import * as restate from '@restatedev/restate-sdk';
import type { SessionLog } from '@tiller/session';
import { describeThrown } from '@tiller/shell';

/** What the durable turn and the `entries` handler call on a host's log. */
const USED = ['has', 'path', 'append'] as const;

/**
 * The host's session log of a session, checked. A throw or a rejection (a store that is down) is
 * retried by Restate like any failed step, since the store may be back on the next attempt; a
 * host that knows it will not be throws Restate's TerminalError, which ends the call. What is
 * returned is another matter: something that is not a log stays so on every retry, which would
 * call it again, for ever, while the client waits. So it fails the call with a TerminalError,
 * which the client hears, naming `sessionLog` and what it gave.
 *
 * On the replay of a turn that had begun (after it suspended, or on another worker) neither can
 * end the call: Restate ends an invocation only where its journal ends, and the replay cannot get
 * there without the log it began on (a TerminalError here would read as a journal mismatch). So
 * the failure is retried, saying so, until the log is back or the invocation is killed.
 */
export async function sessionLogOf(sessionLog: (sessionId: string) => SessionLog | Promise<SessionLog>, sessionId: string, options: { replay?: boolean } = {}): Promise<SessionLog> {
  try {
    return await checkedSessionLog(sessionLog, sessionId);
  } catch (error) {
    if (!options.replay || !(error instanceof restate.TerminalError)) throw error;
    throw new Error(`${error.message}, on the replay of a turn that had begun: it cannot go on without its log, so Restate retries it until the log is back or the invocation is killed`, { cause: error });
  }
}

async function checkedSessionLog(sessionLog: (sessionId: string) => SessionLog | Promise<SessionLog>, sessionId: string): Promise<SessionLog> {
  const call = `sessionLog(${JSON.stringify(sessionId)})`;
  let log: unknown;
  try {
    log = await sessionLog(sessionId);
  } catch (error) {
    if (error instanceof restate.TerminalError) throw error;
    throw new Error(`${call} threw: ${describeThrown(error)}`, { cause: error });
  }
  if (typeof log !== 'object' || log === null) {
    throw new restate.TerminalError(`${call} returned ${log === null ? 'null' : typeof log === 'string' ? JSON.stringify(log) : String(log)}, not a SessionLog (make one with createSessionLog(store))`);
  }
  const missing = USED.filter((method) => typeof (log as Record<string, unknown>)[method] !== 'function');
  if (!('leafId' in log)) missing.unshift('leafId' as never);
  if (missing.length > 0) {
    throw new restate.TerminalError(`${call} returned an object that is not a SessionLog: it has no ${missing.join(', ')} (make one with createSessionLog(store))`);
  }
  return log as SessionLog;
}
