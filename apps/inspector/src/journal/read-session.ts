/**
 * Reads a session file (@tiller/session's JSONL: a header line, then one entry a line) in the
 * browser, for the session tree and the base of a journal's replay. Bad lines are reported and
 * skipped; everything else loads.
 */
import { type Entry, entryShapeProblem } from '@tiller/core';
import { withoutByteOrderMark } from './byte-order-mark.js';
import { lastContentLine } from './last-content-line.js';
import type { JournalProblem } from './read-journal.js';

export const SESSION_HEADER_TYPE = 'tiller.session';
const LABEL_TYPE = 'tiller.label';

export interface ParsedSession {
  id: string;
  entries: Entry[];
  byId: Map<string, Entry>;
  /** Current label of an entry (the latest `tiller.label` entry for it wins). */
  labels: Map<string, string>;
  problems: JournalProblem[];
}

/** True when the text starts with a session header rather than a journal header. */
export function isSessionText(file: string): boolean {
  const text = withoutByteOrderMark(file);
  const first = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length);
  try {
    return (JSON.parse(first) as { type?: unknown }).type === SESSION_HEADER_TYPE;
  } catch {
    return false;
  }
}

export function readSession(text: string): ParsedSession {
  const lines = withoutByteOrderMark(text).split('\n');
  const problems: JournalProblem[] = [];
  let header: { type?: unknown; id?: unknown; version?: unknown };
  try {
    header = JSON.parse(lines[0] ?? '') as typeof header;
  } catch {
    throw new Error('session line 1: not a session header (not JSON)');
  }
  if (header.type !== SESSION_HEADER_TYPE) throw new Error(`session line 1: not a session header (expected "type": "${SESSION_HEADER_TYPE}")`);
  const version = typeof header.version === 'number' ? header.version : 0;
  const session: ParsedSession = { id: headerId(header.id, problems), entries: [], byId: new Map(), labels: new Map(), problems };
  const last = lastContentLine(lines);
  for (let i = 1; i <= last; i++) {
    const text = lines[i]!;
    if (text.trim() === '') continue;
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(text) as Record<string, unknown>;
    } catch {
      problems.push({ line: i + 1, message: `session line ${i + 1}: ${i === last ? 'the last line is incomplete; skipped' : 'not JSON; skipped'}` });
      continue;
    }
    // Version 1 named the kind `type` and the time `timestamp`.
    if (version === 1) value = { ...value, kind: value.type, at: value.timestamp };
    // The entries go to the core as a replay's base: one the schema refuses (a message whose
    // content holds null, a kind the core does not know) made its step throw. The core's own check
    // reads it, as @tiller/session does, and names the field.
    const shape = entryShapeProblem(value);
    if (shape) {
      problems.push({ line: i + 1, message: `session line ${i + 1}, field ${shape.field}: ${shape.reason}; skipped` });
      continue;
    }
    const entry = withEarlierParent(value, session.byId, (message) => problems.push({ line: i + 1, message: `session line ${i + 1}: ${message}` }));
    session.entries.push(entry);
    session.byId.set(entry.id, entry);
    if (entry.kind === 'custom' && entry.customType === LABEL_TYPE) {
      const data = entry.data as { targetId?: unknown; label?: unknown } | undefined;
      if (typeof data?.targetId === 'string') {
        const label = typeof data.label === 'string' ? data.label.trim() : '';
        if (label) session.labels.set(data.targetId, label);
        else session.labels.delete(data.targetId);
      }
    }
  }
  return session;
}

/**
 * The entry, read as a root when the parent it names is not on an earlier line: a writer appends
 * a parent before its children, so such a parent is a loop (`a` names `b`, `b` names `a`, or an
 * entry itself), along which a walk to the root would never end. @tiller/session reads it so too.
 */
function withEarlierParent(value: Record<string, unknown>, earlier: ReadonlyMap<string, Entry>, problem: (message: string) => void): Entry {
  const { parentId } = value;
  if (typeof parentId !== 'string' || earlier.has(parentId)) return value as unknown as Entry;
  problem(`its parent ${JSON.stringify(parentId)} is no entry of an earlier line; read as a root`);
  return { ...value, parentId: null } as unknown as Entry;
}

/**
 * The session's id, '' when the header has none. `String` of an id that is an object such as
 * `{"toString": 1}` threw a bare TypeError, and the file could not be opened: it is read without
 * one, and line 1 named.
 */
function headerId(id: unknown, problems: JournalProblem[]): string {
  if (typeof id === 'string') return id;
  if (id !== undefined) problems.push({ line: 1, message: `session line 1: the header's "id" is ${JSON.stringify(id)}, not a string; read without one` });
  return '';
}
