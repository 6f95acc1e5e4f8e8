/**
 * `table[key]` when the table has that key itself. A type read from a file (a session line, a pi
 * line) indexes a plain object of known types: `constructor`, `__proto__` or `toString` would find
 * what every object inherits (a function, Object.prototype) and read it as the table's value.
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}
