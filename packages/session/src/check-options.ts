import type { z } from 'zod';
import { SessionOptionsError } from './errors/index.js';

type Issue = z.core.$ZodIssue;

/**
 * `value` read through `schema`, or a `SessionOptionsError` naming `entryPoint`, the first bad
 * option (as a path such as `create.id`) and what it should be. For a union (`create: true` or
 * an object) the branch that got furthest explains the failure.
 */
export function checkOptions<T>(entryPoint: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = deepest(parsed.error.issues[0]!);
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const key = [...path, issue.keys[0]!].join('.');
    throw new SessionOptionsError(entryPoint, key, 'unknown option');
  }
  throw new SessionOptionsError(entryPoint, path.join('.') || '(options)', `${issue.message}, got ${describe(at(value, path))}`);
}

function deepest(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  // A branch that got inside the value (an object whose field is wrong) says more than the union;
  // when none did, the union's own message names every form it takes.
  const branches = issue.errors.map((branch) => branch[0]).filter((i): i is Issue => i !== undefined && i.path.length > 0);
  const best = branches.reduce<Issue | undefined>((a, b) => (!a || b.path.length > a.path.length ? b : a), undefined);
  return best ? deepest({ ...best, path: [...issue.path, ...best.path] }) : issue;
}

function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
  return current;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined || value === null) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
