import type { z } from 'zod';
import { InspectorOptionsError } from '../errors/inspector-options-error.js';

/**
 * `value` read through `schema`, or an `InspectorOptionsError` naming `entryPoint`, the first bad
 * option and what it should be (the schema's messages say it in words a host reads).
 */
export function checkOptions<T>(entryPoint: string, schema: z.ZodType<T>, value: unknown, expected: string): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InspectorOptionsError(entryPoint, undefined, `expected an options object such as ${expected}, got ${describeValue(value)}`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const option = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') throw new InspectorOptionsError(entryPoint, [option, issue.keys[0]].filter(Boolean).join('.'), 'unknown option');
  throw new InspectorOptionsError(entryPoint, option, `${issue.message}, got ${describeValue((value as Record<string, unknown>)[String(issue.path[0])])}`);
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object' && value !== null) return 'an object';
  return String(value);
}
