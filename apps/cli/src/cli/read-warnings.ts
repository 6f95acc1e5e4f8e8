import type { Io } from './command.js';

/**
 * What reading a session or journal skipped (a torn or corrupt line), one `warning:` line each on
 * stderr. Every command says its read warnings here: stdout is the command's output, which a user
 * pipes into another program, and a warning there would corrupt it.
 */
export function sayReadWarnings(io: Pick<Io, 'stderr' | 'err'>, warnings: readonly string[]): void {
  for (const warning of warnings) io.stderr.write(`${io.err.yellow(`warning: ${warning}`)}\n`);
}

/** A journal line a crash cut short, named by its file and line, as every command says it. */
export function tornJournalWarnings(journalPath: string, torn: readonly { line: number; text: string }[]): string[] {
  return torn.map((t) => `${journalPath}:${t.line}: not a whole line (${JSON.stringify(t.text)}), skipped`);
}
