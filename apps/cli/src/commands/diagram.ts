import { toMermaid, turnMachine } from '@tiller/core';
import { defineCommand } from '../cli/command.js';
import { oneOf } from '../cli/parse-command-line.js';

export const diagramCommand = defineCommand({
  name: 'diagram',
  summary: 'print the turn machine as a diagram (Mermaid, Graphviz DOT or SVG), offline',
  args: '',
  positionals: { min: 0, max: 0 },
  description: 'Made from the machine\'s definition: every state and every transition with its event and guard.',
  options: {
    format: { type: 'string', short: 'f', value: 'F', description: 'mermaid (default)' },
  },
  async run({ options }, io) {
    const format = oneOf('diagram', 'format', options.format, ['mermaid'] as const) ?? 'mermaid';
    switch (format) {
      case 'mermaid':
        io.stdout.write(`${toMermaid(turnMachine)}\n`);
        return 0;
      default: {
        const unknown: never = format;
        throw new Error(`unknown format ${String(unknown)}`);
      }
    }
  },
});
