#!/usr/bin/env -S npx tsx
import { readFileSync } from 'node:fs';
import type { Io } from './cli/command.js';
import { ExitCode } from './cli/errors.js';
import { runCli } from './cli/run-cli.js';
import { styleFor } from './cli/style.js';
import { commands } from './commands/index.js';

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Handlers a command registers, latest first; `Io` hands them out. */
function handlerStack() {
  const handlers: Array<() => void> = [];
  return {
    latest: () => handlers.at(-1),
    register(handler: () => void) {
      handlers.push(handler);
      return () => {
        const at = handlers.lastIndexOf(handler);
        if (at >= 0) handlers.splice(at, 1);
      };
    },
  };
}

/** Ctrl-C runs the latest handler a command registered; with none, the program ends at once. */
const interruptHandlers = handlerStack();
process.on('SIGINT', () => {
  const handler = interruptHandlers.latest();
  if (handler) handler();
  else process.exit(ExitCode.interrupted);
});

/**
 * A closed stdout (`tiller show x | head`) is no error worth a stack trace. A command at work (a
 * turn running) is told, so it can stop the turn and close its session, releasing the lock;
 * with none, the program ends at once. Every later write fails the same way: only the first counts.
 */
const outputClosedHandlers = handlerStack();
let outputClosed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  if (outputClosed) return;
  outputClosed = true;
  const handler = outputClosedHandlers.latest();
  if (handler) handler();
  else process.exit(ExitCode.ok);
});

// Nobody reads stderr (its reader went away, or it was closed): the line is lost, and the exit code
// still says what happened; failing on the write would turn every code into 1.
process.stderr.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE' && error.code !== 'EBADF') throw error;
});

const io: Io = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  out: styleFor(process.stdout, process.env),
  err: styleFor(process.stderr, process.env),
  onInterrupt: interruptHandlers.register,
  onOutputClosed: outputClosedHandlers.register,
};

process.exitCode = await runCli(process.argv.slice(2), commands, version, io);
