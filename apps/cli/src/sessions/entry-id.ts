import { usageError } from '../cli/errors.js';
import { shortId } from '../view/describe-entry.js';

/** An entry id as given, as `show` prints it (`shortId`), or the first characters of one. */
export function resolveEntryId(ids: readonly string[], given: string, command: string): string {
  if (ids.includes(given)) return given;
  const short = ids.filter((id) => shortId(id) === given);
  if (short.length === 1) return short[0]!;
  const matches = ids.filter((id) => id.startsWith(given) || shortId(id).startsWith(given));
  if (matches.length === 1) return matches[0]!;
  throw usageError(
    matches.length === 0
      ? `tiller ${command}: no entry ${JSON.stringify(given)} in this session`
      : `tiller ${command}: ${JSON.stringify(given)} names ${matches.length} entries; give more of the id`,
  );
}
