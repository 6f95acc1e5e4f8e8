import { usageError } from '../cli/errors.js';
import { shortId } from '../view/describe-entry.js';

/** Where an entry id was given: the command, its option (`--fork`), and the session file it must be in. */
export interface EntryIdSource {
  command: string;
  option: string;
  session: string;
}

/** An entry id as given, as `show` prints it (`shortId`), or the first characters of one. */
export function resolveEntryId(ids: readonly string[], given: string, from: EntryIdSource): string {
  if (ids.includes(given)) return given;
  const short = ids.filter((id) => shortId(id) === given);
  if (short.length === 1) return short[0]!;
  const matches = ids.filter((id) => id.startsWith(given) || shortId(id).startsWith(given));
  if (matches.length === 1) return matches[0]!;
  throw usageError(
    matches.length === 0
      ? `tiller ${from.command}: --${from.option} ${given}: no entry ${JSON.stringify(given)} in session ${from.session}`
      : `tiller ${from.command}: --${from.option} ${given}: ${JSON.stringify(given)} names ${matches.length} entries of session ${from.session}; give more of the id`,
  );
}
