import type { BrokenInvariant, UserInvariant } from './invariants.js';
import type { PathRun } from './path-run.js';

/**
 * The user's own invariants over a run, after Tiller's (`broken`): what each reports, one message
 * or several; a check that throws, or returns anything but a message, a list of messages or
 * nothing, is broken with what it threw or returned.
 */
export function checkUserInvariants(run: Omit<PathRun, 'passed' | 'broken' | 'report'>, broken: readonly BrokenInvariant[], invariants: readonly UserInvariant[]): BrokenInvariant[] {
  const found: BrokenInvariant[] = [];
  for (const invariant of invariants) {
    // Each check sees what broke before it, the user's earlier invariants included.
    const before = [...broken, ...found];
    for (const message of messagesOf(() => invariant.check({ ...run, passed: before.length === 0, broken: before, report: () => '' }))) {
      found.push({ invariant: invariant.name, message });
    }
  }
  return found;
}

function messagesOf(check: () => unknown): string[] {
  let result: unknown;
  try {
    result = check();
  } catch (error) {
    return [`the check threw: ${error instanceof Error ? error.message : String(error)}`];
  }
  // null is nothing too, as a check written in JavaScript may say it.
  if (result === undefined || result === null) return [];
  if (typeof result === 'string') return [result];
  if (Array.isArray(result)) {
    const junk = result.find((m) => typeof m !== 'string');
    if (junk === undefined) return result as string[];
    return [returned(`a list holding ${described(junk)}`)];
  }
  // Nothing awaits it: its rejection, if any, must not be left unhandled in the test process.
  if (result instanceof Promise) result.catch(() => undefined);
  return [returned(described(result))];
}

function returned(what: string): string {
  return `the check returned ${what}, where a message, a list of messages or nothing is expected`;
}

function described(value: unknown): string {
  if (value instanceof Promise) return 'a Promise (an async check; checks run after the path, synchronously)';
  if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'an object';
  if (typeof value === 'function') return 'a function';
  return `the ${typeof value} ${String(value)}`;
}
