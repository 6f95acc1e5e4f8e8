import type { Entry } from '@tiller/core';

/**
 * The session file format. Line 1 is the header, every other line one entry as JSON.
 *
 * Version 2 (current): entries carry `kind` and `at` (the @tiller/core field names) and every line
 * starts with `{"kind":<kind>,"id":<id>,"parentId":<parent>`, so a reader can follow the leaf's
 * path back to its latest compaction from the end of the file without parsing the lines between.
 *
 * Version 1: the first draft. Entries named their kind `type` and their time `timestamp` (pi's
 * names), in no fixed key order. Opened through `migrateV1ToV2`.
 */
export const SESSION_FORMAT_VERSION = 2;

export const HEADER_TYPE = 'tiller.session';

export interface SessionFileHeader {
  type: typeof HEADER_TYPE;
  version: number;
  /** The session's id, chosen when the file was created. */
  id: string;
  createdAt: string;
}

type Line = Record<string, unknown>;

export interface Migration {
  /** The version this migration reads; it produces `from + 1`. */
  from: number;
  /** What changed, for the docs and error messages. */
  change: string;
  entry(line: Line): Line;
}

function migrateV1ToV2(line: Line): Line {
  const { type, timestamp, ...rest } = line;
  return { kind: type, id: rest.id, parentId: rest.parentId, at: timestamp, ...rest };
}

export const migrations: readonly Migration[] = [
  { from: 1, change: 'entry fields `type` and `timestamp` became `kind` and `at`', entry: migrateV1ToV2 },
];

/** The function that brings an entry line of `version` to the current version; undefined when it is current. */
export function migrationFrom(version: number): ((line: Line) => Line) | undefined {
  if (version === SESSION_FORMAT_VERSION) return undefined;
  const steps = migrations.filter((m) => m.from >= version).sort((a, b) => a.from - b.from);
  return (line) => steps.reduce((current, step) => step.entry(current), line);
}

/**
 * One entry as a line of the current version (without the newline). Kind, id and parentId lead
 * the line, so a reader can follow a path from the end of the file reading only line prefixes.
 */
export function serializeEntry(entry: Entry): string {
  const { kind, id, parentId, ...rest } = entry;
  return JSON.stringify({ kind, id, parentId, ...rest });
}

export function serializeHeader(header: SessionFileHeader): string {
  return JSON.stringify(header);
}
