import type { BrokenInvariant, UserInvariant } from './invariants.js';
import type { PathRun } from './path-run.js';

/**
 * The user's own invariants over a run, after Tiller's (`broken`): what each reports, one message
 * or several, and a check that throws as broken with what it threw.
 */
export function checkUserInvariants(run: Omit<PathRun, 'passed' | 'broken' | 'report'>, broken: readonly BrokenInvariant[], invariants: readonly UserInvariant[]): BrokenInvariant[] {
  const found: BrokenInvariant[] = [];
  for (const invariant of invariants) {
    let result: string | readonly string[] | void | undefined;
    // Each check sees what broke before it, the user's earlier invariants included.
    const before = [...broken, ...found];
    try {
      result = invariant.check({ ...run, passed: before.length === 0, broken: before, report: () => '' });
    } catch (error) {
      result = `the check threw: ${(error as Error).message}`;
    }
    for (const message of typeof result === 'string' ? [result] : (result ?? [])) found.push({ invariant: invariant.name, message });
  }
  return found;
}
