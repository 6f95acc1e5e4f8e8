import { toDot, toMermaid, turnMachine } from '@tiller/core';
import { defineCommand } from '../cli/command.js';
import { oneOf } from '../cli/parse-command-line.js';

export const diagramCommand = defineCommand({
  name: 'diagram',
  summary: 'print the turn machine as a diagram (Mermaid, Graphviz DOT or SVG), offline',
  args: '',
  positionals: { min: 0, max: 0 },
  description: [
    "Made from the machine's definition: every state and every transition with its event and guard.",
    'SVG is laid out by Graphviz compiled to WebAssembly (@viz-js/viz), with no network and no',
    'installed Graphviz; its states and edges carry stable ids (state:tools.running, edge:…).',
  ].join('\n'),
  options: {
    format: { type: 'string', short: 'f', value: 'F', description: 'mermaid (default), dot or svg' },
  },
  async run({ options }, io) {
    const format = oneOf('diagram', 'format', options.format, ['mermaid', 'dot', 'svg'] as const) ?? 'mermaid';
    switch (format) {
      case 'mermaid':
        io.stdout.write(`${toMermaid(turnMachine)}\n`);
        return 0;
      case 'dot':
        io.stdout.write(`${toDot(turnMachine)}\n`);
        return 0;
      case 'svg': {
        // The WebAssembly build of Graphviz loads only when an SVG is asked for.
        const { instance } = await import('@viz-js/viz');
        const viz = await instance();
        io.stdout.write(viz.renderString(toDot(turnMachine), { format: 'svg', engine: 'dot' }));
        return 0;
      }
      default: {
        const unknown: never = format;
        throw new Error(`unknown format ${String(unknown)}`);
      }
    }
  },
});
