import { z } from 'zod';
import type { Entry, EntryKind } from '../schema/entry.js';
import { TurnConfigError } from './turn-config-error.js';

// Strict: a misspelt key (`maxIteration`) is refused, never ignored with its default left in place.
export const TurnConfig = z.strictObject({
  /** Model calls that may use tools in one turn; after that many tool rounds, one final call without tools. */
  maxIterations: z.number().int().nonnegative().default(25),
  /**
   * The session path the turns build on, oldest first (from the root, or from wherever the host
   * resumed). Checked for shape and continuity, not parsed entry by entry: it comes from a
   * session log that validated each entry when it was written, and may hold 100k of them (so
   * zod checks only that it is an array, and one loop below does the rest without a copy).
   */
  entries: z.custom<readonly Entry[]>((value) => Array.isArray(value), 'expected an array of entries').default([]),
});
export type TurnConfig = z.input<typeof TurnConfig>;
export type ResolvedTurnConfig = z.output<typeof TurnConfig>;


const KINDS: ReadonlySet<EntryKind> = new Set(['message', 'compaction', 'branch_summary', 'custom']);

/** What is wrong with the path at its first bad entry, or null. */
function pathProblem(entries: readonly unknown[]): string | null {
  let previousId: string | undefined;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as Partial<Record<keyof Entry, unknown>> | null;
    if (typeof entry !== 'object' || entry === null) return `entries[${i}]: expected an entry object`;
    if (typeof entry.id !== 'string' || entry.id === '') return `entries[${i}].id: expected a non-empty string`;
    if (!KINDS.has(entry.kind as EntryKind)) return `entries[${i}].kind: expected one of ${[...KINDS].join(', ')}`;
    if (previousId !== undefined && entry.parentId !== previousId) {
      return `entries[${i}].parentId: expected "${previousId}" (the entry before it): entries must form one path`;
    }
    previousId = entry.id;
  }
  return null;
}

/** Validates a configuration; the error names the bad option and what was expected. */
export function resolveTurnConfig(config: TurnConfig = {}): ResolvedTurnConfig {
  const parsed = TurnConfig.safeParse(config);
  if (!parsed.success) throw new TurnConfigError(`invalid turn config:\n${z.prettifyError(parsed.error)}`);
  const problem = pathProblem(parsed.data.entries);
  if (problem) throw new TurnConfigError(`invalid turn config: ${problem}`);
  return parsed.data;
}
