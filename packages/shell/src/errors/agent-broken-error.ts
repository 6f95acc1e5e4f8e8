import { ShellError } from './shell-error.js';

/** The agent could not carry out an effect and stopped; create or resume a new one over the session. */
export class AgentBrokenError extends ShellError {
  override readonly name = 'AgentBrokenError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('agent_broken', message, options);
  }

  static override isInstance(error: unknown): error is AgentBrokenError {
    return ShellError.hasCode(error, 'agent_broken');
  }
}
