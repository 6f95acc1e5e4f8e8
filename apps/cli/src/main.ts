#!/usr/bin/env -S npx tsx
import { readFileSync } from 'node:fs';
import type { Io } from './cli/command.js';
import { ExitCode } from './cli/errors.js';
import { runCli } from './cli/run-cli.js';
import { styleFor } from './cli/style.js';
import { commands } from './commands/index.js';

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Ctrl-C runs the latest handler a command registered; with none, the program ends at once. */
const interruptHandlers: Array<() => void> = [];
process.on('SIGINT', () => {
  const handler = interruptHandlers.at(-1);
  if (handler) handler();
  else process.exit(ExitCode.interrupted);
});

const io: Io = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  out: styleFor(process.stdout, process.env),
  err: styleFor(process.stderr, process.env),
  onInterrupt(handler) {
    interruptHandlers.push(handler);
    return () => {
      const at = interruptHandlers.lastIndexOf(handler);
      if (at >= 0) interruptHandlers.splice(at, 1);
    };
  },
};

// A closed pipe (`tiller show x | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(ExitCode.ok);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), commands, version, io);
