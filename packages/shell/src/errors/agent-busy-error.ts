import { ShellError } from './shell-error.js';

/** `prompt` while a turn runs. */
export class AgentBusyError extends ShellError {
  static override readonly code = 'agent_busy';
  override readonly name = 'AgentBusyError';
}
