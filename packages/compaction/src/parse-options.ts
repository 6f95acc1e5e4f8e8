import type { z } from 'zod';
import { CompactionConfigError } from './errors/index.js';

/**
 * Parses options with a zod schema; the first problem becomes a `CompactionConfigError` that
 * names the entry point and the option's path (`fileTools.read`), the rest stay in the message.
 */
export function parseOptions<S extends z.ZodType>(schema: S, input: unknown, entryPoint: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues;
  const option = first && first.path.length > 0 ? first.path.map(String).join('.') : undefined;
  const more = rest.length > 0 ? ` (and ${rest.length} more: ${rest.map(describeIssue).join('; ')})` : '';
  throw new CompactionConfigError(entryPoint, option, `is invalid: ${first ? first.message : 'unknown problem'}${more}`);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}
