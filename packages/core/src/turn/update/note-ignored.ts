import type { Draft } from 'immer';
import { IGNORED_NOTES_KEPT, type IgnoredNote, type TurnContext } from '../context.js';

export function noteIgnored(draft: Draft<TurnContext>, note: IgnoredNote): void {
  draft.ignored.count += 1;
  draft.ignored.recent.push(note);
  if (draft.ignored.recent.length > IGNORED_NOTES_KEPT) draft.ignored.recent.shift();
}
