import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AppendError, createSessionLog, importPiSession, JsonlStore } from '@tiller/session';
import { defineCommand } from '../cli/command.js';
import { inputError, usageError } from '../cli/errors.js';
import { sayReadWarnings } from '../cli/read-warnings.js';
import { sessionFormatOf } from '../sessions/open-session.js';
import { readInputFile } from '../sessions/replay-files.js';

export const importCommand = defineCommand({
  name: 'import',
  summary: 'turn a pi session file into a Tiller session file (pi\'s ids, tree and compactions kept)',
  args: '<pi-session>',
  positionals: { min: 1, max: 1 },
  description: 'Writes a new file (default: beside the pi file, x.jsonl -> x.tiller.jsonl); never changes the pi file. tiller export --format pi writes it back.',
  options: {
    output: { type: 'string', short: 'o', value: 'FILE', description: 'the Tiller session file to write (must not exist)' },
  },
  async run({ positionals, options }, io) {
    const source = resolve(io.cwd, positionals[0]!);
    const text = await readInputFile(source, 'pi session');
    if (sessionFormatOf(source, text) !== 'pi') throw inputError(`${source}: already a Tiller session; nothing to import`);
    const imported = importPiSession(text, { source });
    const target = options.output ? resolve(io.cwd, options.output) : join(dirname(source), `${basename(source, '.jsonl')}.tiller.jsonl`);
    if (existsSync(target)) throw usageError(`tiller import: ${target} already exists; choose another file with --output`);
    const log = createSessionLog(await JsonlStore.open(target, { create: { id: imported.header.id, createdAt: imported.header.timestamp } }));
    try {
      await log.append(imported.entries);
    } catch (error) {
      await log.close();
      // A session of only a header must not stay: the next try would refuse it as an output that exists.
      if (!AppendError.isInstance(error) || error.code !== 'write_failed') throw error;
      await rm(target, { force: true });
      throw inputError(`tiller import: ${target}: cannot write the file: ${error.cause instanceof Error ? error.cause.message : error.message}`);
    }
    await log.close();
    sayReadWarnings(io, imported.warnings.map((w) => w.message));
    io.stdout.write(`imported ${imported.entries.length} entries (pi format ${imported.version}) into ${target}\n`);
    return 0;
  },
});
