import { InspectorSourceError, serveInspector, type InspectorServer } from '@tiller/inspector';
import type { Io } from '../cli/command.js';
import { CliError, ExitCode } from '../cli/errors.js';

export interface ServeJournalOptions {
  /** Stream the journal as it is written, for a run that goes on. */
  follow: boolean;
  port?: number;
  /** The command that serves it, named in its errors (default `inspect`). */
  command?: string;
  /** Where the URL is printed (default stdout; stderr when stdout carries a command's output). */
  on?: 'stdout' | 'stderr';
}

/**
 * Serves the inspector on 127.0.0.1 for `file` (a journal, or a session with its journal beside
 * it) and prints its URL.
 */
export async function serveJournal(file: string, io: Io, options: ServeJournalOptions): Promise<InspectorServer> {
  try {
    const server = await serveInspector({ file, port: options.port ?? 0, follow: options.follow });
    printUrl(io, options.on ?? 'stdout', 'inspector:', server.url);
    return server;
  } catch (error) {
    const command = options.command ?? 'inspect';
    if (InspectorSourceError.isInstance(error)) throw new CliError(`tiller ${command}: ${error.message}`, ExitCode.input);
    // Nothing wrong with the command line or the file: the port is taken, so the work could not be done.
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new CliError(`tiller ${command}: --port ${options.port}: the port is in use on 127.0.0.1; give another, or leave --port out for a free one`, ExitCode.failed);
    }
    throw error;
  }
}

/** One line `label url`, the label in bold where the stream is a terminal. */
export function printUrl(io: Io, on: 'stdout' | 'stderr', label: string, url: string): void {
  const stream = on === 'stdout' ? io.stdout : io.stderr;
  const style = on === 'stdout' ? io.out : io.err;
  stream.write(`${style.bold(label)} ${url}\n`);
}

/** Resolves at Ctrl-C, while the inspector behind `url` goes on serving; the caller stops it. */
export async function untilInterrupted(served: { url: string }, io: Io): Promise<void> {
  io.stderr.write(io.err.dim(`the inspector serves ${served.url} until Ctrl-C.\n`));
  await new Promise<void>((resolve) => {
    const stop = io.onInterrupt(() => {
      stop();
      resolve();
    });
  });
}
