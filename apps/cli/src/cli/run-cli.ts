import type { Command, Io, OptionSpecs } from './command.js';
import { CliError, ExitCode } from './errors.js';
import { commandHelp, programHelp } from './help.js';
import { parseCommandLine } from './parse-command-line.js';
import { oneLine } from '../view/describe.js';

/** Errors of Tiller's libraries that mean "this file is not what you said it is": exit code 3. */
const INPUT_ERRORS = new Set(['SessionFileError', 'PiImportError', 'JournalError', 'SessionLockedError', 'UnknownEntryError']);

/**
 * Runs one command line: `--version`, `--help`, or a command from the table. Whatever goes wrong
 * ends as one line on stderr and an exit code (see `ExitCode`); never a stack trace, unless
 * TILLER_DEBUG is set.
 */
export async function runCli(argv: readonly string[], commands: readonly Command<OptionSpecs>[], version: string, io: Io): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const asked = first === 'help' ? rest[0] : undefined;
    const topic = asked === undefined ? undefined : commands.find((c) => c.name === asked);
    if (asked !== undefined && !topic) return fail(io, unknownCommand(asked, commands));
    io.stdout.write(`${topic ? commandHelp(topic) : programHelp(commands, version)}\n`);
    return ExitCode.ok;
  }
  if (first === '--version' || first === '-V') {
    io.stdout.write(`${version}\n`);
    return ExitCode.ok;
  }
  const command = commands.find((c) => c.name === first);
  if (!command) return fail(io, unknownCommand(first, commands));
  try {
    const parsed = parseCommandLine(command, rest);
    if (parsed.help) {
      io.stdout.write(`${commandHelp(command)}\n`);
      return ExitCode.ok;
    }
    if (parsed.version) {
      io.stdout.write(`${version}\n`);
      return ExitCode.ok;
    }
    return await command.run({ positionals: parsed.positionals, options: parsed.options }, io);
  } catch (error) {
    return fail(io, toCliError(command.name, error));
  }
}

function unknownCommand(name: string, commands: readonly Command<OptionSpecs>[]): CliError {
  const what = name.startsWith('-') ? `unknown option ${name}` : `unknown command "${name}"`;
  return new CliError(`tiller: ${what}; the commands are ${commands.map((c) => c.name).join(', ')} (see tiller --help)`, ExitCode.usage);
}

function toCliError(commandName: string, error: unknown): CliError {
  if (error instanceof CliError) return error.message.startsWith('tiller') ? error : new CliError(`tiller ${commandName}: ${error.message}`, error.exitCode);
  const e = error instanceof Error ? error : new Error(String(error));
  // Library messages already say where (file:line, field); a multi-line one (zod's explanation) becomes one line.
  const firstLine = oneLine(e.message);
  if (INPUT_ERRORS.has(e.name)) return new CliError(`tiller ${commandName}: ${firstLine}`, ExitCode.input);
  const failure = new CliError(`tiller ${commandName}: ${e.name === 'Error' ? '' : `${e.name}: `}${firstLine}`, ExitCode.failed);
  failure.cause = e;
  return failure;
}

function fail(io: Io, error: CliError): number {
  io.stderr.write(`${io.err.red(error.message)}\n`);
  if (io.env.TILLER_DEBUG && error.cause instanceof Error) io.stderr.write(`${error.cause.stack}\n`);
  return error.exitCode;
}
