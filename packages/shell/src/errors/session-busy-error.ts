import { ShellError } from './shell-error.js';

/**
 * `prompt` while another agent's turn runs on the same session log: two turns at once would
 * append to one tree from two places and fork it, so the second is refused, never interleaved.
 */
export class SessionBusyError extends ShellError {
  static override readonly code = 'session_busy';
  override readonly name = 'SessionBusyError';
}
