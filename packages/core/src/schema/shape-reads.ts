/** The first field of a value that is not what its schema says, and why; `field` is relative to the value checked. */
export interface ShapeProblem {
  field: string;
  reason: string;
}

export type Problem = ShapeProblem | undefined;
export type Fields = Record<string, unknown>;

// The reads `messageShapeProblem` and `entryShapeProblem` share: each mirrors what one zod schema
// piece takes, so the two checks agree with their schemas the same way.

/** `at` is the place of the object holding the field (`content[2]`), or '' for the value itself. */
export function fieldAt(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

export function string(o: Fields, key: string, at: string): Problem {
  return typeof o[key] === 'string' ? undefined : { field: fieldAt(at, key), reason: 'expected a string' };
}

export function nonEmptyString(o: Fields, key: string, at: string): Problem {
  const value = o[key];
  return typeof value === 'string' && value !== '' ? undefined : { field: fieldAt(at, key), reason: 'expected a non-empty string' };
}

export function optionalString(o: Fields, key: string, at: string): Problem {
  const value = o[key];
  return value === undefined || typeof value === 'string' ? undefined : { field: fieldAt(at, key), reason: 'expected a string when present' };
}

export function optionalBoolean(o: Fields, key: string, at: string): Problem {
  const value = o[key];
  return value === undefined || typeof value === 'boolean' ? undefined : { field: fieldAt(at, key), reason: 'expected true or false when present' };
}

/** `z.array(z.string())`: each element named by its index (`details.readFiles[2]`). */
export function stringArray(value: unknown, field: string): Problem {
  if (!Array.isArray(value)) return { field, reason: 'expected an array of strings' };
  for (let i = 0; i < value.length; i++) {
    if (typeof value[i] !== 'string') return { field: `${field}[${i}]`, reason: 'expected a string' };
  }
  return undefined;
}

/**
 * `z.record(z.string(), z.unknown())`: a plain object (not an array, a Date, a Map or a class's
 * instance) with string keys only. A JSON line always gives one or nothing; the rest is for values
 * a host built in JavaScript.
 */
export function recordProblem(value: unknown, field: string): Problem {
  if (!isObject(value)) return { field, reason: 'expected an object' };
  if (!isPlainObject(value)) return { field, reason: 'expected a plain object (not a Date, a Map or an instance of a class)' };
  // zod refuses an enumerable symbol key (its keys must be strings); a JSON object never has one.
  for (const key of Object.getOwnPropertySymbols(value)) {
    if (Object.prototype.propertyIsEnumerable.call(value, key)) return { field, reason: 'expected string keys only (it has a symbol key)' };
  }
  return undefined;
}

const TOKEN_COUNTS = ['input', 'output', 'cacheRead', 'cacheWrite', 'totalTokens'] as const;
const COSTS = ['input', 'output', 'cacheRead', 'cacheWrite', 'total'] as const;

/** The schema `Usage` at `field` (`usage`, `provenance.summarizerUsage`). */
export function usageProblem(usage: unknown, field: string): Problem {
  if (!isObject(usage)) return { field, reason: 'expected an object' };
  for (const key of TOKEN_COUNTS) {
    const n = usage[key];
    if (!Number.isSafeInteger(n) || (n as number) < 0) return { field: `${field}.${key}`, reason: 'expected a whole number of tokens, 0 or more' };
  }
  const cost = usage.cost;
  if (cost === undefined) return undefined;
  if (!isObject(cost)) return { field: `${field}.cost`, reason: 'expected an object' };
  for (const key of COSTS) {
    if (!isAmount(cost[key])) return { field: `${field}.cost.${key}`, reason: 'expected a finite number, 0 or more' };
  }
  return undefined;
}

/** `z.number().nonnegative()`: zod 4 takes no NaN and no infinity. */
export function isAmount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** What zod takes for an object: anything of type object but null and arrays (a Date too). */
export function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What zod takes for a record (its `isPlainObject`): an object whose constructor, if any is a function, has a prototype of its own with `isPrototypeOf` (Object's does; a class's does not). */
function isPlainObject(value: Fields): boolean {
  const ctor = value.constructor;
  if (typeof ctor !== 'function') return true;
  const prototype: unknown = ctor.prototype;
  return isObject(prototype) && Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}
