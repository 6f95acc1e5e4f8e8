import { ShellError } from './shell-error.js';

/** A bad option or message; the message names it and says what was expected. */
export class AgentOptionsError extends ShellError {
  static override readonly code = 'invalid_options';
  override readonly name = 'AgentOptionsError';
}
