import type { Command, OptionSpecs } from './command.js';

/** The `--help` text of a command, made from its declaration so it never drifts from what parses. */
export function commandHelp(command: Command<OptionSpecs>): string {
  const rows: Array<[string, string]> = Object.entries(command.options).map(([name, spec]) => [
    `${spec.short ? `-${spec.short}, ` : '    '}--${name}${spec.value ? (spec.optionalValue ? `[=${spec.value}]` : ` ${spec.value}`) : ''}`,
    spec.description,
  ]);
  rows.push(['-h, --help', 'show this help']);
  rows.push(['-V, --version', 'print the version']);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `usage: tiller ${command.name}${command.args ? ` ${command.args}` : ''}${Object.keys(command.options).length > 0 ? ' [options]' : ''}`,
    '',
    command.summary,
    ...(command.description ? ['', command.description] : []),
    '',
    'options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
  ].join('\n');
}

/** The top-level help: every registered command with its summary. */
export function programHelp(commands: readonly Command<OptionSpecs>[], version: string): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `tiller ${version}: the turn of an LLM agent, run, replayed, compacted and shown`,
    '',
    'usage: tiller <command> [options]',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'tiller <command> --help shows a command\'s options; tiller --version prints the version.',
    'Exit codes: 0 ok, 1 the work failed (a replay diverged, a turn failed), 2 bad command line,',
    '3 a file is missing or not what the command reads, 130 interrupted.',
  ].join('\n');
}
