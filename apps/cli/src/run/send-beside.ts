import { AgentBrokenError, AgentClosedError } from '@tiller/shell';
import type { Io } from '../cli/command.js';
import { oneLine } from '../view/describe.js';

/**
 * Lets a call to the running turn (an abort, the demo's steer and follow-up) go on without waiting
 * for it. It rejects once the agent stopped (a file it writes could not be written) or closed, and
 * then the turn's prompt fails with the same error, which is where it is said: here it must not
 * become an unhandled rejection, which ends the process with a stack trace before the session is
 * closed. Anything else is said on stderr.
 */
export function sendBeside(sent: Promise<unknown>, io: Pick<Io, 'stderr' | 'err'>): void {
  sent.catch((error: unknown) => {
    if (AgentBrokenError.isInstance(error) || AgentClosedError.isInstance(error)) return;
    io.stderr.write(`${io.err.red(`tiller: ${oneLine(error instanceof Error ? error.message : String(error))}`)}\n`);
  });
}
