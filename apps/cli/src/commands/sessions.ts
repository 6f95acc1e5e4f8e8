import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineCommand } from '../cli/command.js';
import { inputError } from '../cli/errors.js';
import { closeSession, openSession } from '../sessions/open-session.js';
import { listSessionFiles, sessionDirFor } from '../sessions/session-dir.js';
import { messageText, shorten } from '../view/describe.js';

export const sessionsCommand = defineCommand({
  name: 'sessions',
  summary: 'list the sessions of a folder (default: those tiller run keeps for the current directory)',
  args: '[DIR]',
  positionals: { min: 0, max: 1 },
  description: 'Tiller and pi session files alike, newest first: when, how many entries, the name or first prompt, the file.',
  options: {},
  async run({ positionals }, io) {
    const dir = positionals[0] ? resolve(io.cwd, positionals[0]) : sessionDirFor(io.cwd, io.env);
    if (positionals[0]) {
      const s = await stat(dir).catch(() => undefined);
      if (!s) throw inputError(`${dir}: no such folder`);
      if (!s.isDirectory()) throw inputError(`${dir}: not a folder`);
    }
    const files = await listSessionFiles(dir);
    const write = (text: string) => io.stdout.write(`${text}\n`);
    if (files.length === 0) {
      write(`no sessions in ${dir}`);
      return 0;
    }
    for (const file of files) {
      const when = new Date(file.modifiedMs).toISOString().slice(0, 16).replace('T', ' ');
      let described: string;
      try {
        const session = await openSession(file.path);
        try {
          const first = session.log.entries().find((e) => e.kind === 'message' && e.message.role === 'user');
          const title = session.log.sessionName ?? (first?.kind === 'message' ? JSON.stringify(shorten(messageText(first.message), 50)) : '(no prompt yet)');
          described = `${String(session.log.size).padStart(6)} entries  ${session.format.padEnd(6)}  ${title}`;
        } finally {
          await closeSession(session);
        }
      } catch (error) {
        described = io.out.yellow(`not readable: ${(error as Error).message.split('\n')[0]}`);
      }
      write(`${when}  ${described}\n                  ${io.out.dim(file.path)}`);
    }
    return 0;
  },
});
