import type { Draft } from 'immer';
import { buildContext, entryMessage } from '../../context/build-context.js';
import { AppendOnlyList } from '../../log/append-only-list.js';
import type { Entry } from '../../schema/entry.js';
import type { Message } from '../../schema/message.js';
import type { TurnContext } from '../context.js';

/** An entry as the core writes it, before it gets its place in the log. */
export type EntryBody = Entry extends infer E ? (E extends Entry ? Omit<E, 'id' | 'parentId' | 'at'> : never) : never;

/**
 * Appends entries that already have ids and parents, keeping the model's view in step. A
 * compaction changes what the view starts with, so the view is rebuilt then, and only then.
 */
export function appendEntries(draft: Draft<TurnContext>, entries: readonly Entry[]): void {
  if (entries.length === 0) return;
  let log = draft.entries as AppendOnlyList<Entry>;
  log = log.append(...entries);
  draft.entries = log;
  if (entries.some((e) => e.kind === 'compaction')) {
    draft.view = AppendOnlyList.from(buildContext(log.toArray()));
    return;
  }
  const messages = entries.map(entryMessage).filter((m): m is Message => m !== undefined);
  draft.view = (draft.view as AppendOnlyList<Message>).append(...messages);
}

/** Writes entries for the running turn: ids derive from the turn's id, each the child of the last. */
export function appendNew(draft: Draft<TurnContext>, at: string, bodies: readonly EntryBody[]): Entry[] {
  const turn = draft.turn;
  if (!turn) throw new Error('appendNew needs a running turn');
  let parentId = draft.entries.last()?.id ?? null;
  const entries = bodies.map((body) => {
    const id = `${turn.turnId}.${turn.entrySeq++}`;
    const entry = { ...body, id, parentId, at } as Entry;
    parentId = id;
    return entry;
  });
  appendEntries(draft, entries);
  return entries;
}

export function lastEntryId(context: TurnContext): string | null {
  return context.entries.last()?.id ?? null;
}
