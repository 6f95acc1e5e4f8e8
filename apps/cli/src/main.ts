#!/usr/bin/env -S npx tsx
import { toMermaid, turnMachine } from '@tiller/core';
import { runDemo } from './commands/demo.js';

const USAGE = `usage: tiller <command>

commands:
  demo      step a scripted turn through the core, printing every input, state and effect
  diagram   print the turn machine as a Mermaid state diagram`;

function main(argv: string[]): number {
  const [command] = argv;
  switch (command) {
    case 'demo':
      runDemo();
      return 0;
    case 'diagram':
      console.log(toMermaid(turnMachine));
      return 0;
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return 0;
    default:
      console.error(`tiller: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
