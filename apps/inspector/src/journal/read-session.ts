/**
 * Reads a session file (@tiller/session's JSONL: a header line, then one entry a line) in the
 * browser, for the session tree and the base of a journal's replay. @tiller/session's own reader
 * does the reading, so the page shows the tree the agent sees: the same lines skipped, the same
 * repairs, each named in a problem.
 */
import type { Entry } from '@tiller/core';
import { labelsOf, readSessionText } from '@tiller/session/text';
import type { JournalProblem } from './read-journal.js';

export { isSessionText } from '@tiller/session/text';

export interface ParsedSession {
  id: string;
  entries: Entry[];
  byId: Map<string, Entry>;
  /** Current label of an entry (the latest `tiller.label` entry for it wins). */
  labels: Map<string, string>;
  problems: JournalProblem[];
}

/** The session in `text`, its problems named after `file`. Throws when the header cannot be read. */
export function readSession(text: string, file: string): ParsedSession {
  const { header, entries, byId, warnings } = readSessionText(text, file);
  return { id: header.id, entries, byId, labels: labelsOf(entries), problems: warnings.map(({ line, message }) => ({ line, message })) };
}
