import { AppendError } from '@tiller/session';
import { AgentBrokenError, JournalWriteError } from '@tiller/shell';
import { CliError, ExitCode } from '../cli/errors.js';
import { oneLine } from '../view/describe.js';

/**
 * The one line for an agent that stopped because its session or journal file could not be
 * written (a full disk, a file size limit): the file and the system's error, and what to do, since
 * the turn is picked up from the journal by the next run. Undefined for any other error.
 */
export function storageFailure(error: unknown, sessionPath: string): CliError | undefined {
  if (!AgentBrokenError.isInstance(error)) return undefined;
  const { cause } = error;
  const unwritten = (AppendError.isInstance(cause) && cause.code === 'write_failed') || JournalWriteError.isInstance(cause);
  if (!unwritten) return undefined;
  // The session's own words end by saying it was cut back; the advice follows them.
  const said = oneLine((cause as Error).message).replace(/; the file was cut back to its last whole entry, so none of them is in it$/, '');
  return new CliError(
    `tiller run: ${said}; the session keeps what was written: make room, then run tiller run --session ${sessionPath} again to carry the turn on`,
    ExitCode.failed,
  );
}
