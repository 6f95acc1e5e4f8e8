import { ShellError } from './shell-error.js';

/** `prompt` while a turn runs. */
export class AgentBusyError extends ShellError {
  override readonly name = 'AgentBusyError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('agent_busy', message, options);
  }

  static override isInstance(error: unknown): error is AgentBusyError {
    return ShellError.hasCode(error, 'agent_busy');
  }
}
