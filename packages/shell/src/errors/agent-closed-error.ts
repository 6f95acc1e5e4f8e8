import { ShellError } from './shell-error.js';

/**
 * `prompt`, `steer` or `followUp` on an agent whose `close()` was called. Its event iterators have
 * ended and its journal is closed: a turn run then would reopen the journal's file and hold it open.
 */
export class AgentClosedError extends ShellError {
  static override readonly code = 'agent_closed';
  override readonly name = 'AgentClosedError';
}
