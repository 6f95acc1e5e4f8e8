import type { Readable } from 'node:stream';
import type { OutStream, Style } from './style.js';

/** One option of a command, as `util.parseArgs` takes it, with what `--help` says about it. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** Shown after the flag in `--help`: `--window N`. */
  value?: string;
  /**
   * A `string` option whose value may be left out: `--inspect` alone parses as `''`, a value is
   * given with `=` (`--inspect=stately`), so the next argument is never taken as its value.
   */
  optionalValue?: boolean;
  description: string;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** What a command's options parse to: strings for `string` options, booleans for `boolean` ones. */
export type ParsedOptions<O extends OptionSpecs> = {
  [K in keyof O]?: O[K]['type'] extends 'string' ? (O[K]['multiple'] extends true ? string[] : string) : boolean;
};

/** The process around a command, passed in so tests and the real program share every line. */
export interface Io {
  stdout: OutStream;
  stderr: OutStream;
  stdin: Readable & { isTTY?: boolean | undefined; setRawMode?: (raw: boolean) => unknown };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Styles for stdout and stderr: colour only where the stream is a terminal. */
  out: Style;
  err: Style;
  /** Registers what Ctrl-C does while the command runs; returns the function that unregisters it. */
  onInterrupt(handler: () => void): () => void;
  /**
   * Registers what a closed stdout (its reader went away: `tiller run | head -1`) does while the
   * command runs; returns the function that unregisters it. With none, the program ends with 0:
   * the reader had all it wanted.
   */
  onOutputClosed(handler: () => void): () => void;
}

export interface Command<O extends OptionSpecs = OptionSpecs> {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Positional arguments as `--help` shows them: `<session>`, `[DIR]`. */
  args: string;
  /** How many positionals it takes. */
  positionals: { min: number; max: number };
  /** Paragraphs after the usage line in `--help`. */
  description: string;
  options: O;
  /** Runs the command; resolves with its exit code. Throws `CliError` for what the user must fix. */
  run(input: { positionals: string[]; options: ParsedOptions<O> }, io: Io): Promise<number>;
}

/** Declares a command, keeping the option types for `run`. */
export function defineCommand<O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}
