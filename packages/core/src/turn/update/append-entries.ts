import { buildContext, entryMessage } from '../../context/build-context.js';
import { AppendOnlyList } from '../../log/append-only-list.js';
import type { Entry } from '../../schema/entry.js';
import type { Message } from '../../schema/message.js';
import type { TurnContext } from '../context.js';
import type { WorkingContext } from './working-context.js';

/** An entry as the core writes it, before it gets its place in the log. */
export type EntryBody = Entry extends infer E ? (E extends Entry ? Omit<E, 'id' | 'parentId' | 'at'> : never) : never;

/**
 * Appends entries that already have ids and parents, keeping the model's view in step. A
 * compaction changes what the view starts with, so the view is rebuilt then, and only then.
 */
export function appendEntries(work: WorkingContext, entries: readonly Entry[]): void {
  if (entries.length === 0) return;
  let log = work.entries as AppendOnlyList<Entry>;
  log = log.append(...entries);
  work.entries = log;
  if (entries.some((e) => e.kind === 'compaction')) {
    work.view = AppendOnlyList.from(buildContext(log.toArray()));
    return;
  }
  const messages = entries.map(entryMessage).filter((m): m is Message => m !== undefined);
  work.view = (work.view as AppendOnlyList<Message>).append(...messages);
}

/** Writes entries for the running turn: ids derive from the turn's id, each the child of the last. */
export function appendNew(work: WorkingContext, at: string, bodies: readonly EntryBody[]): Entry[] {
  const turn = work.turn;
  if (!turn) throw new Error('appendNew needs a running turn');
  let parentId = work.entries.last()?.id ?? null;
  const entries = bodies.map((body) => {
    const id = `${turn.turnId}.${turn.entrySeq++}`;
    const entry = { ...body, id, parentId, at } as Entry;
    parentId = id;
    return entry;
  });
  appendEntries(work, entries);
  return entries;
}

export function lastEntryId(context: TurnContext): string | null {
  return context.entries.last()?.id ?? null;
}
