import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { exportPiSession } from '@tiller/session';
import { defineCommand } from '../cli/command.js';
import { writeNewOutput } from '../cli/write-failure.js';
import { usageError } from '../cli/errors.js';
import { sayReadWarnings } from '../cli/read-warnings.js';
import { oneOf } from '../cli/parse-command-line.js';
import { closeSession, openSession, type OpenedSession } from '../sessions/open-session.js';
import { sessionHtml } from '../view/session-html.js';

export const exportCommand = defineCommand({
  name: 'export',
  summary: 'write a session as a pi session file, a self-contained HTML page, or JSON',
  args: '<session>',
  positionals: { min: 1, max: 1 },
  description: 'Reads Tiller and pi session files; writes to stdout, or to --output FILE (which must not exist). The session is only read.',
  options: {
    format: { type: 'string', short: 'f', value: 'F', description: 'pi, html or json (default json)' },
    output: { type: 'string', short: 'o', value: 'FILE', description: 'write here instead of stdout' },
  },
  async run({ positionals, options }, io) {
    const format = oneOf('export', 'format', options.format, ['pi', 'html', 'json'] as const) ?? 'json';
    const target = options.output ? resolve(io.cwd, options.output) : undefined;
    if (target && existsSync(target)) throw usageError(`tiller export: ${target} already exists`);
    const session = await openSession(positionals[0]!);
    try {
      // What loads is exported; what the read skipped is said, so a short export is never silent.
      sayReadWarnings(io, session.warnings);
      const text = render(session, format);
      if (target) {
        await writeNewOutput(target, text);
        io.stdout.write(`wrote ${session.log.size} entries as ${format} to ${target}\n`);
      } else io.stdout.write(text);
      return 0;
    } finally {
      await closeSession(session);
    }
  },
});

function render(session: OpenedSession, format: 'pi' | 'html' | 'json'): string {
  const { log } = session;
  switch (format) {
    case 'pi':
      return exportPiSession(log.entries(), {
        header: session.format === 'pi' ? session.header : { type: 'session', id: session.id, timestamp: session.createdAt, cwd: '' },
      });
    case 'html':
      return sessionHtml(log, session);
    case 'json':
      return `${JSON.stringify(
        { source: { path: session.path, format: session.format, id: session.id, createdAt: session.createdAt }, leafId: log.leafId, entries: log.entries(), context: log.context() },
        null,
        2,
      )}\n`;
    default: {
      const unknown: never = format;
      throw new TypeError(`unknown format ${String(unknown)}`);
    }
  }
}
