import { buildContext, entryMessage } from '../../context/build-context.js';
import { AppendOnlyList } from '../../log/append-only-list.js';
import type { Entry, UserOrigin } from '../../schema/entry.js';
import type { Message } from '../../schema/message.js';
import type { TurnContext } from '../context.js';
import type { WorkingContext } from './working-context.js';

/**
 * Appends entries that already have ids and parents, keeping the model's view in step. A
 * compaction changes what the view starts with, so the view is rebuilt then, and only then.
 */
export function appendEntries(work: WorkingContext, entries: readonly Entry[]): void {
  if (entries.length === 0) return;
  const log = work.entries.append(...entries);
  work.entries = log;
  if (entries.some((e) => e.kind === 'compaction')) {
    work.view = AppendOnlyList.adopt(buildContext(log.lend()));
    return;
  }
  const messages = entries.map(entryMessage).filter((m): m is Message => m !== undefined);
  work.view = work.view.append(...messages);
}

/**
 * Writes messages of the running turn as entries: ids derive from the turn's id, each entry the
 * child of the one before. The view grows by the same messages. `origins[i]`, when given, says
 * why the user message `messages[i]` joined.
 */
export function appendMessages(work: WorkingContext, at: string, messages: readonly Message[], origins?: readonly UserOrigin[]): Entry[] {
  const turn = work.turn;
  if (!turn) throw new Error('appendMessages needs a running turn');
  let parentId = work.entries.last()?.id ?? null;
  const entries: Entry[] = [];
  for (const [i, message] of messages.entries()) {
    const id = `${turn.turnId}.${turn.entrySeq++}`;
    const origin = origins?.[i];
    entries.push(origin ? { id, parentId, at, kind: 'message', message, origin } : { id, parentId, at, kind: 'message', message });
    parentId = id;
  }
  work.entries = work.entries.append(...entries);
  work.view = work.view.append(...messages);
  return entries;
}

export function lastEntryId(context: TurnContext): string | null {
  return context.entries.last()?.id ?? null;
}
