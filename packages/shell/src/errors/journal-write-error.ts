import { ShellError } from './shell-error.js';

/**
 * A journal file the system refused to write (a full disk, a file size limit, no permission); the
 * message names the file and the line, and `cause` is the system's error (its `code`: `ENOSPC`,
 * `EFBIG`, ...). The agent that was writing stops with it as the `cause` of its `AgentBrokenError`.
 */
export class JournalWriteError extends ShellError {
  static override readonly code = 'journal_write_failed';
  override readonly name = 'JournalWriteError';
}
