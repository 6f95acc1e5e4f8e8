import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from '@tiller/testing';
import { generatedSession } from './generated-session.js';
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
 * kind (`generatedSession`), with a note saying so, so a bare clone runs the same benchmarks.
 */
export function sourceSession(dir: string = fixturesDir()): SourceSession {
  const path = join(dir, RECORDING);
  if (existsSync(path)) {
    const lines = piOpen(readFileSync(path, 'utf8')).entries as unknown as PiLine[];
    return { lines, description: `the recorded pi session ${RECORDING} (${lines.length.toLocaleString('en-US')} entries)` };
  }
  const lines = generatedSession(GENERATED_SEED, GENERATED_SIZE);
  const description = `a generated session (seed ${GENERATED_SEED}, ${GENERATED_SIZE.toLocaleString('en-US')} entries)`;
  return { lines, description, note: `${RECORDING} not found at ${path}: measured over ${description} instead of the recording` };
}
