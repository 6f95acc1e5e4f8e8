/**
 * A value a user handed the kit where it expected something else, in a few words for an error:
 * `undefined`, `a Promise`, `a list`, `the number 42`. Never the whole value: it may be a run
 * with thousands of events.
 */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (value instanceof Promise) return 'a Promise';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'bigint':
    case 'boolean':
    case 'symbol':
      return `the ${typeof value} ${String(value)}`;
    case 'function':
      return 'a function';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
