/** A value as a message can name it: `a string ("lots")`, `NaN`, `an array`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}
