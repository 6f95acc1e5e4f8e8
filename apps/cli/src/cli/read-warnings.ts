import { tornLineWarning, type TornLine } from '@tiller/shell';
import type { Io } from './command.js';

/**
 * What reading a session or journal skipped (a torn or corrupt line), one `warning:` line each on
 * stderr. Every command says its read warnings here: stdout is the command's output, which a user
 * pipes into another program, and a warning there would corrupt it.
 */
export function sayReadWarnings(io: Pick<Io, 'stderr' | 'err'>, warnings: readonly string[]): void {
  for (const warning of warnings) io.stderr.write(`${io.err.yellow(`warning: ${warning}`)}\n`);
}

/** The journal lines whose write was cut short, named by the journal's file and line, worded as the shell words them. */
export function tornJournalWarnings(journalPath: string, torn: readonly TornLine[]): string[] {
  return torn.map((line) => tornLineWarning(journalPath, line).message);
}
