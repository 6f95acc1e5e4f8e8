import { describe, expect, it } from 'vitest';
import { defineCommand } from './command.js';
import { commandHelp } from './help.js';
import { parseCommandLine } from './parse-command-line.js';

const watch = defineCommand({
  name: 'watch',
  summary: 'a command with an option whose value may be left out',
  args: '[WORDS...]',
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  description: '',
  options: {
    inspect: { type: 'string', optionalValue: true, value: 'stately', description: 'watch it' },
    model: { type: 'string', value: 'M', description: 'a model' },
  },
  run: async () => 0,
});

describe('an option whose value may be left out', () => {
  it('parses alone as the empty value, and never takes the next argument as its value', () => {
    expect(parseCommandLine(watch, ['--inspect', 'hello', 'there'])).toMatchObject({ options: { inspect: '' }, positionals: ['hello', 'there'] });
    expect(parseCommandLine(watch, ['hello', '--inspect'])).toMatchObject({ options: { inspect: '' }, positionals: ['hello'] });
  });

  it('takes a value given with =', () => {
    expect(parseCommandLine(watch, ['--inspect=stately', '--model', 'm', 'hi'])).toMatchObject({ options: { inspect: 'stately', model: 'm' }, positionals: ['hi'] });
  });

  it('leaves alone what comes after --, and other options as they were', () => {
    expect(parseCommandLine(watch, ['--', '--inspect'])).toMatchObject({ options: {}, positionals: ['--inspect'] });
    expect(() => parseCommandLine(watch, ['--model'])).toThrow(/^tiller watch: option --model needs a value/);
  });

  it('shows as --name[=VALUE] in the help', () => {
    expect(commandHelp(watch)).toMatch(/^ {6}--inspect\[=stately\] {2}watch it$/m);
  });
});
