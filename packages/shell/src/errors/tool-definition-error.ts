import { ShellError } from './shell-error.js';

/** A tool definition `defineTool` cannot accept; the message names the field. */
export class ToolDefinitionError extends ShellError {
  static override readonly code = 'invalid_tool_definition';
  override readonly name = 'ToolDefinitionError';
}
