import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The recorded pi sessions that tests and benchmarks share. */
export type FixtureName = 'pi-large-session.jsonl' | 'pi-before-compaction.jsonl';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The folder of shared fixtures: `TILLER_FIXTURES` when set, else `shared/fixtures` beside the
 * repository (where the project keeps them; they are not committed).
 */
export function fixturesDir(): string {
  return process.env.TILLER_FIXTURES ?? join(repoRoot, '..', 'shared', 'fixtures');
}

const FIXTURE_NAMES: readonly FixtureName[] = ['pi-large-session.jsonl', 'pi-before-compaction.jsonl'];

/**
 * Whether the recorded sessions are there. A clone of the repository does not have them: tests
 * that read them run as an extra pass when they are, and are skipped with this reason when not.
 */
export function recordedFixtures(): { available: true; names: readonly FixtureName[] } | { available: false; reason: string } {
  const missing = FIXTURE_NAMES.filter((name) => !existsSync(join(fixturesDir(), name)));
  if (missing.length === 0) return { available: true, names: FIXTURE_NAMES };
  return { available: false, reason: `recorded pi sessions not found in ${fixturesDir()} (set TILLER_FIXTURES to the folder that holds them)` };
}

export function fixturePath(name: FixtureName): string {
  const path = join(fixturesDir(), name);
  if (!existsSync(path)) {
    throw new Error(`fixture ${name} not found at ${path}; set TILLER_FIXTURES to the folder that holds it`);
  }
  return path;
}

export function readFixture(name: FixtureName): string {
  return readFileSync(fixturePath(name), 'utf8');
}
