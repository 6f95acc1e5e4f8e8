import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, generatePiSession } from '@tiller/testing';
import { piOpen } from './pi.js';
import type { PiLine } from './scale-session.js';

const RECORDING = 'pi-large-session.jsonl';
/** The generated stand-in: the seed, and the recording's length. */
export const GENERATED_SEED = 17;
export const GENERATED_SIZE = 1018;

/** The conversation every benchmark repeats to its sizes, and where it came from. */
export interface SourceSession {
  /** pi's format 3, root first. */
  lines: PiLine[];
  /** For the results page: what was measured. */
  description: string;
  /** Set when the recording was absent and a generated session stands in; say it where it shows. */
  note?: string;
}

/**
 * The large recorded pi session from the shared fixtures (`TILLER_FIXTURES`, or shared/fixtures
 * beside the repository) when it is there; otherwise a generated session of the same length and
 * kind (`generatedSource`), with a note saying so, so a bare clone runs the same benchmarks.
 */
export function sourceSession(dir: string = fixturesDir()): SourceSession {
  const path = join(dir, RECORDING);
  if (existsSync(path)) {
    const lines = piOpen(readFileSync(path, 'utf8')).entries as unknown as PiLine[];
    return { lines, description: `the recorded pi session ${RECORDING} (${lines.length.toLocaleString('en-US')} entries)` };
  }
  const lines = generatedSource(GENERATED_SEED, GENERATED_SIZE);
  const description = `a generated session (seed ${GENERATED_SEED}, ${GENERATED_SIZE.toLocaleString('en-US')} entries)`;
  return { lines, description, note: `${RECORDING} not found at ${path}: measured over ${description} instead of the recording` };
}

/**
 * The first `size` entries of a session from `@tiller/testing`'s `generatePiSession`, as one chain
 * that the bench can repeat and hand every loop alike: no branches and no compactions (a history
 * is a path of messages), no `!command` runs (pi keeps a command marked `excludeFromContext` among
 * its messages, Tiller does not, so the loops would get histories of different lengths).
 */
export function generatedSource(seed: number, size: number): PiLine[] {
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`size must be a non-negative integer, got ${size}`);
  // A turn writes about seven entries; a fifth of the size in turns is always enough.
  const { text } = generatePiSession({ seed, format: 3, turns: Math.ceil(size / 5) + 1, branches: false, compactions: false, shellCommands: false });
  const lines = text.trimEnd().split('\n').slice(1).map((line) => JSON.parse(line) as PiLine);
  if (lines.length < size) throw new RangeError(`a generated session of ${Math.ceil(size / 5) + 1} turns has ${lines.length} entries, fewer than ${size}`);
  return lines.slice(0, size);
}
