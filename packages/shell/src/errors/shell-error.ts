const MARKER = Symbol.for('tiller.shell.error');

/** What went wrong, for a host that handles errors by kind rather than by message. */
export type ShellErrorCode =
  | 'invalid_options'
  | 'agent_busy'
  | 'agent_closed'
  | 'session_busy'
  | 'invalid_message'
  | 'agent_broken'
  | 'invalid_approval'
  | 'invalid_tool_definition'
  | 'invalid_journal'
  | 'journal_write_failed'
  | 'compaction_policy_violated';

/**
 * The base of every error `@tiller/shell` throws; each subclass declares its `code`. `isInstance`
 * recognises one made by another installed copy of the package too: it checks a `Symbol.for`
 * marker and the code, not the prototype chain.
 */
export abstract class ShellError extends Error {
  /** The code every error of the class carries (each subclass sets its own). */
  static readonly code: ShellErrorCode | undefined = undefined;
  readonly [MARKER] = true;
  readonly code: ShellErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = (new.target as unknown as { code: ShellErrorCode }).code;
  }

  /** `ShellError.isInstance(e)`: any shell error; `ApprovalError.isInstance(e)`: that class's code only. */
  static isInstance<T extends abstract new (...args: never[]) => ShellError>(this: T & { code?: ShellErrorCode | undefined }, error: unknown): error is InstanceType<T> {
    if (typeof error !== 'object' || error === null || (error as { [MARKER]?: unknown })[MARKER] !== true) return false;
    return this.code === undefined || (error as ShellError).code === this.code;
  }
}
