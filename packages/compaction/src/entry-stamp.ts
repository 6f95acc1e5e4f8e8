import { describeValue } from './describe-value.js';
import { CompactionConfigError } from './errors/index.js';

export interface EntryStamp {
  id: string;
  at: string;
}

/**
 * The id and time of an entry a compactor appends, from its `newId` and `now` options (or
 * `crypto.randomUUID()` and `new Date()`), checked: an empty id would be refused by the log, and
 * an invalid Date throws a bare "Invalid time value" from `toISOString`; either way the message
 * names the option that gave it.
 */
export function entryStamp(options: { newId?: (() => string) | undefined; now?: (() => Date) | undefined }, entryPoint: string): EntryStamp {
  const id: unknown = (options.newId ?? (() => crypto.randomUUID()))();
  if (typeof id !== 'string' || id === '') throw new CompactionConfigError(entryPoint, 'newId', `is invalid: it returned ${describeValue(id)}, not a non-empty string`);
  const date: unknown = (options.now ?? (() => new Date()))();
  if (!(date instanceof Date)) throw new CompactionConfigError(entryPoint, 'now', `is invalid: it returned ${describeValue(date)}, not a Date`);
  if (Number.isNaN(date.getTime())) throw new CompactionConfigError(entryPoint, 'now', 'is invalid: it returned an invalid Date, not a Date of a moment');
  return { id, at: date.toISOString() };
}
