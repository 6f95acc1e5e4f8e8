import { InspectorOptionsError, InspectorSourceError, writeInspectorHtml } from '@tiller/inspector';
import { defineCommand } from '../cli/command.js';
import { CliError, ExitCode, inputError } from '../cli/errors.js';
import { portNumber } from '../cli/parse-command-line.js';
import { sayReadWarnings } from '../cli/read-warnings.js';
import { writeFailure } from '../cli/write-failure.js';
import { inspectionWarnings } from '../inspect/inspection-warnings.js';
import { serveJournal, untilInterrupted } from '../inspect/serve-journal.js';

export const inspectCommand = defineCommand({
  name: 'inspect',
  summary: 'open a journal or a session in the inspector (served on 127.0.0.1), or write it as one HTML file',
  args: '<journal|session>',
  positionals: { min: 1, max: 1 },
  description: [
    'Serves the inspector page and the file on 127.0.0.1 and prints the URL; Ctrl-C stops it. The',
    'page replays the journal through the core in the browser (statechart, timeline, context gauge,',
    'session tree), with no model call. A session file is read with the journal beside it.',
    '--follow streams the journal as it is written, for a run that is still going.',
    '--html OUT writes one self-contained file with the data inside, which opens from file://.',
  ].join('\n'),
  options: {
    html: { type: 'string', value: 'OUT', description: 'write one self-contained HTML file instead of serving' },
    follow: { type: 'boolean', description: 'follow the journal as it is written (a live run)' },
    port: { type: 'string', value: 'N', description: 'the port on 127.0.0.1 (default: any free one)' },
  },
  async run({ positionals, options }, io) {
    const file = positionals[0]!;
    if (options.html !== undefined) {
      try {
        io.stdout.write(`${await writeInspectorHtml(file, options.html)}\n`);
      } catch (error) {
        if (InspectorSourceError.isInstance(error)) throw new CliError(`tiller inspect: ${error.message}`, ExitCode.input);
        // A place the file cannot go (a missing folder, a folder given as the file), found before any work.
        if (InspectorOptionsError.isInstance(error) && error.option === 'out') throw inputError(`--html: ${error.reason}`);
        throw writeFailure(options.html, error) ?? error;
      }
      sayReadWarnings(io, await inspectionWarnings(file, { waitForJournal: false }));
      return ExitCode.ok;
    }
    const port = portNumber('inspect', 'port', options.port) ?? 0;
    const server = await serveJournal(file, io, { follow: options.follow === true, port });
    try {
      sayReadWarnings(io, await inspectionWarnings(file, { waitForJournal: options.follow === true }));
      await untilInterrupted(server, io);
    } finally {
      await server.close();
    }
    return ExitCode.ok;
  },
});
