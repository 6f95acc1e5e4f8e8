import { ShellError } from './shell-error.js';

/** A tool definition `defineTool` cannot accept; the message names the field. */
export class ToolDefinitionError extends ShellError {
  override readonly name = 'ToolDefinitionError';

  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_tool_definition', message, options);
  }

  static override isInstance(error: unknown): error is ToolDefinitionError {
    return ShellError.hasCode(error, 'invalid_tool_definition');
  }
}
