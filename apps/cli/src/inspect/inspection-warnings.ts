import { existsSync } from 'node:fs';
import { resolveInspectorSource } from '@tiller/inspector';
import { SessionError } from '@tiller/session';
import { JournalError, parseJournal } from '@tiller/shell';
import { tornJournalWarnings } from '../cli/read-warnings.js';
import { openSessionReadOnly, readInputFile } from '../sessions/replay-files.js';

/**
 * What reading the files behind an inspection skips or repairs, worded as every other command
 * words it, for stderr: the page lists the same problems, but a user of `--html` may never open
 * it. A journal line or session file the page cannot read is said too; the rest is still served.
 */
export async function inspectionWarnings(file: string, options: { waitForJournal: boolean }): Promise<string[]> {
  const source = await resolveInspectorSource(file, options);
  const warnings: string[] = [];
  if (existsSync(source.journal)) {
    try {
      warnings.push(...tornJournalWarnings(source.journal, parseJournal(await readInputFile(source.journal, 'journal'), source.journal).torn));
    } catch (error) {
      if (!JournalError.isInstance(error)) throw error;
      warnings.push(`${error.message}; the page shows the runs it can read`);
    }
  }
  if (source.session !== undefined && existsSync(source.session)) {
    try {
      const session = await openSessionReadOnly(source.session);
      warnings.push(...session.warnings.map((w) => w.message));
      await session.close();
    } catch (error) {
      if (!SessionError.isInstance(error)) throw error;
      warnings.push(`${error.message}; the page shows the journal without its session`);
    }
  }
  return warnings;
}
