import { ShellError } from './shell-error.js';

/** The agent could not carry out an effect and stopped; create or resume a new one over the session. */
export class AgentBrokenError extends ShellError {
  static override readonly code = 'agent_broken';
  override readonly name = 'AgentBrokenError';
}
