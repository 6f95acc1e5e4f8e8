import { current, isDraft } from 'immer';

/**
 * A draft's value as plain data. Anything that leaves a reducer (a progress event, an entry in
 * the shared log) must not be a draft: drafts are revoked when the reducer returns.
 */
export function plain<T>(value: T): T {
  return isDraft(value) ? (current(value as never) as T) : value;
}
