import { ShellError } from './shell-error.js';

/** A bad option or message; the message names it and says what was expected. */
export class AgentOptionsError extends ShellError {
  override readonly name = 'AgentOptionsError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_options', message, options);
  }

  static override isInstance(error: unknown): error is AgentOptionsError {
    return ShellError.hasCode(error, 'invalid_options');
  }
}
