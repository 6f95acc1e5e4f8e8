import { InspectorSourceError, serveInspector, type InspectorServer } from '@tiller/inspector';
import type { Io } from '../cli/command.js';
import { CliError, ExitCode } from '../cli/errors.js';

/**
 * Serves the inspector on 127.0.0.1 for `file` (a journal, or a session with its journal beside
 * it) and prints its URL. `follow` streams the journal as it is written, for a run that goes on.
 */
export async function serveJournal(file: string, io: Io, options: { follow: boolean; port?: number }): Promise<InspectorServer> {
  try {
    const server = await serveInspector({ file, port: options.port ?? 0, follow: options.follow });
    io.stdout.write(`${io.out.bold('inspector:')} ${server.url}\n`);
    return server;
  } catch (error) {
    if (error instanceof InspectorSourceError) throw new CliError(`tiller inspect: ${error.message}`, ExitCode.input);
    throw error;
  }
}

/** Resolves at Ctrl-C, while the inspector goes on serving; the caller stops it. */
export async function untilInterrupted(server: InspectorServer, io: Io): Promise<void> {
  io.stderr.write(io.err.dim(`the inspector serves ${server.url} until Ctrl-C.\n`));
  await new Promise<void>((resolve) => {
    const stop = io.onInterrupt(() => {
      stop();
      resolve();
    });
  });
}
