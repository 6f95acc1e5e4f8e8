/**
 * The exit codes of `tiller`, documented in docs/cli.md. Scripts rely on them, so they never change
 * meaning: 1 is "the command ran and the answer is no", 2 and 3 say the command could not start.
 */
export const ExitCode = {
  ok: 0,
  /** The command ran and what it checked did not hold: a replay diverged, a turn failed or was aborted, a model call failed. */
  failed: 1,
  /** The command line is wrong: an unknown command or option, a missing or extra argument, a bad value. */
  usage: 2,
  /** A file named on the command line is missing, unreadable, or not what the command reads. */
  input: 3,
  /** A second Ctrl-C ended the program (128 + SIGINT). */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the CLI reports as one line on stderr, exiting with `exitCode`. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, ExitCode.usage);
export const inputError = (message: string) => new CliError(message, ExitCode.input);
