const MARKER = Symbol.for('tiller.shell.error');

/** What went wrong, for a host that handles errors by kind rather than by message. */
export type ShellErrorCode =
  | 'invalid_options'
  | 'agent_busy'
  | 'agent_broken'
  | 'invalid_approval'
  | 'invalid_tool_definition'
  | 'invalid_journal'
  | 'compaction_policy_violated';

/**
 * The base of every error `@tiller/shell` throws. `isInstance` recognises one made by another
 * installed copy of the package too (it checks a `Symbol.for` marker, not the prototype chain).
 */
export class ShellError extends Error {
  readonly [MARKER] = true;
  readonly code: ShellErrorCode;

  constructor(code: ShellErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  static isInstance(error: unknown): error is ShellError {
    return typeof error === 'object' && error !== null && (error as { [MARKER]?: unknown })[MARKER] === true;
  }

  /** For the subclasses: a shell error with this code. */
  protected static hasCode(error: unknown, code: ShellErrorCode): boolean {
    return ShellError.isInstance(error) && error.code === code;
  }
}
