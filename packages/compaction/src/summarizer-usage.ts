import type { Cost, Usage } from '@tiller/core';
import { describeValue } from './describe-value.js';

const COUNTS = ['input', 'output', 'cacheRead', 'cacheWrite', 'totalTokens'] as const;
const COSTS = ['input', 'output', 'cacheRead', 'cacheWrite', 'total'] as const;

export type SummarizerUsage = { usage: Usage; problem?: undefined } | { usage: undefined; problem: string | undefined };

/**
 * A summarizer's reported usage as a compaction entry may record it. Summarizers are often local
 * or written by hand and report what they have, so a field left out counts as 0. A figure that is
 * no count at all (a string, NaN, a negative or fractional number of tokens) is not the
 * summarizer's usage: it is left out, with the `problem` for the caller to report, rather than
 * recorded in an entry the session log would refuse.
 */
export function readSummarizerUsage(value: unknown): SummarizerUsage {
  if (value === undefined || value === null) return { usage: undefined, problem: undefined };
  if (typeof value !== 'object' || Array.isArray(value)) return { usage: undefined, problem: `it is ${describeValue(value)}, not an object` };
  const reported = value as Record<string, unknown>;
  const usage = {} as Usage;
  for (const field of COUNTS) {
    const count = reported[field] ?? 0;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
      return { usage: undefined, problem: `${field} is ${describeValue(count)}, not a whole number of tokens` };
    }
    usage[field] = count;
  }
  if (reported.cost === undefined || reported.cost === null) return { usage };
  if (typeof reported.cost !== 'object' || Array.isArray(reported.cost)) {
    return { usage: undefined, problem: `cost is ${describeValue(reported.cost)}, not an object` };
  }
  const reportedCost = reported.cost as Record<string, unknown>;
  const cost = {} as Cost;
  for (const field of COSTS) {
    const amount = reportedCost[field] ?? 0;
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) {
      return { usage: undefined, problem: `cost.${field} is ${describeValue(amount)}, not an amount of 0 or more` };
    }
    cost[field] = amount;
  }
  return { usage: { ...usage, cost } };
}
