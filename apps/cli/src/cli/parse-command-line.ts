import { parseArgs } from 'node:util';
import type { Command, OptionSpecs, ParsedOptions } from './command.js';
import { usageError } from './errors.js';

export interface ParsedCommandLine<O extends OptionSpecs> {
  positionals: string[];
  options: ParsedOptions<O>;
  help: boolean;
  /** `--version` (or `-V`) was given: every command takes it, as the program does. */
  version: boolean;
}

/**
 * Parses a command's arguments with `util.parseArgs` (strict: an unknown option is an error) and
 * checks the number of positionals. Errors are `CliError`s with exit code 2 that name the option
 * and point at `--help`.
 */
export function parseCommandLine<O extends OptionSpecs>(command: Command<O>, argv: readonly string[]): ParsedCommandLine<O> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'V' },
  };
  for (const [name, spec] of Object.entries(command.options)) {
    options[name] = { type: spec.type, ...(spec.short ? { short: spec.short } : {}), ...(spec.multiple ? { multiple: true } : {}) };
  }
  const where = `tiller ${command.name}`;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: withNegativeNumbers(command, withOptionalValues(command, argv)), options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(`${where}: ${describeParseError(error as Error & { code?: string }, argv)} (see tiller ${command.name} --help)`);
  }
  const values = parsed.values as Record<string, unknown>;
  const help = values.help === true;
  const version = values.version === true;
  delete values.help;
  delete values.version;
  if (!help && !version) {
    const count = parsed.positionals.length;
    const { min, max } = command.positionals;
    if (count < min) throw usageError(`${where}: missing ${command.args.split(' ').slice(count, min).join(' ')} (usage: tiller ${command.name} ${command.args})`);
    if (count > max) {
      const extra = parsed.positionals.slice(max).map((p) => JSON.stringify(p)).join(' ');
      throw usageError(`${where}: unexpected argument ${extra} (usage: tiller ${command.name} ${command.args})`);
    }
  }
  return { positionals: parsed.positionals, options: values as ParsedOptions<O>, help, version };
}

/**
 * parseArgs knows no option whose value may be left out: a bare `--inspect` becomes `--inspect=`
 * (the empty value), so it never swallows the argument after it. Arguments after `--` are left alone.
 */
function withOptionalValues(command: Command<OptionSpecs>, argv: readonly string[]): string[] {
  const bare = new Set(Object.entries(command.options).flatMap(([name, spec]) => (spec.optionalValue ? [`--${name}`] : [])));
  const end = argv.indexOf('--');
  return argv.map((arg, i) => (bare.has(arg) && (end < 0 || i < end) ? `${arg}=` : arg));
}

/**
 * parseArgs reads `--delay -5` as an option without its value (the value looks like an option):
 * a negative number after an option that takes a value is joined to it (`--delay=-5`, `-w-3`), so the
 * option's own check says what is wrong with it.
 */
function withNegativeNumbers(command: Command<OptionSpecs>, argv: readonly string[]): string[] {
  const takesValue = new Set(
    Object.entries(command.options).flatMap(([name, spec]) => (spec.type === 'string' && !spec.optionalValue ? [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])] : [])),
  );
  const end = argv.indexOf('--');
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (takesValue.has(arg) && next !== undefined && /^-\d/.test(next) && (end < 0 || i < end)) {
      out.push(arg.startsWith('--') ? `${arg}=${next}` : `${arg}${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** parseArgs's messages are long and suggest `--`; say what was wrong in one short clause. */
function describeParseError(error: Error & { code?: string }, argv: readonly string[]): string {
  const option = /'(-[^']*)'/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option ?? error.message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      if (!option) return error.message;
      const name = option.replace(/ <value>$/, '');
      if (error.message.includes('argument missing')) return `option ${name} needs a value`;
      // The value given starts with a dash, so parseArgs took it for an option.
      if (error.message.includes('ambiguous')) {
        const long = /'(--[\w-]+)=-XYZ'/.exec(error.message)?.[1] ?? name;
        const value = argv[argv.indexOf(name) + 1] ?? '-…';
        return `option ${long} needs a value; one that starts with a dash goes after = (${long}=${value})`;
      }
      return `option ${name} takes no value`;
    }
    default:
      return error.message;
  }
}

/** An option's value as a whole number of at least `min` (`1_000` reads as 1000), or a usage error naming the option. */
export function wholeNumber(command: string, option: string, value: string | undefined, min: 0 | 1 = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === '' ? Number.NaN : Number(value.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < min) {
    const rule = min === 0 && Number.isSafeInteger(n) ? 'must not be negative' : `must be a ${min === 1 ? 'positive ' : ''}whole number`;
    throw usageError(`tiller ${command}: --${option} ${rule}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** A TCP port: 0 (any free one) to 65535. */
export function portNumber(command: string, option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw usageError(`tiller ${command}: --${option} must be a port number from 0 to 65535, got ${JSON.stringify(value)}`);
  return n;
}

export const positiveInteger = (command: string, option: string, value: string | undefined) => wholeNumber(command, option, value, 1);

/** An option's value from a fixed list, or a usage error that lists the choices. */
export function oneOf<const T extends string>(command: string, option: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw usageError(`tiller ${command}: --${option} must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}`);
}
