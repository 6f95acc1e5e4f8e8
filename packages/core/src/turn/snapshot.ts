import { z } from 'zod';
import type { SnapshotFrom } from 'xstate';
import { AppendOnlyList } from '../log/append-only-list.js';
import { Entry } from '../schema/entry.js';
import { Message } from '../schema/message.js';
import type { TurnContext } from './context.js';
import { SnapshotRestoreError } from './snapshot-restore-error.js';
import { turnMachine } from './machine.js';

export type TurnSnapshot = SnapshotFrom<typeof turnMachine>;

/** The JSON form of a snapshot: its state value and its context, lists as plain arrays. */
export interface PersistedTurnSnapshot {
  value: TurnSnapshot['value'];
  context: Omit<TurnContext, 'entries' | 'view'> & { entries: Entry[]; view: Message[] };
}


export function persistSnapshot(snapshot: TurnSnapshot): PersistedTurnSnapshot {
  return JSON.parse(JSON.stringify({ value: snapshot.value, context: snapshot.context })) as PersistedTurnSnapshot;
}

export function serializeSnapshot(snapshot: TurnSnapshot): string {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context });
}

const StateValue: z.ZodType<TurnSnapshot['value']> = z.union([
  z.enum(['idle', 'steering', 'calling']),
  z.object({ tools: z.enum(['running', 'awaitingApproval']) }),
]) as never;

const PersistedShape = z.object({
  value: StateValue,
  context: z.looseObject({
    maxIterations: z.number().int().nonnegative(),
    entries: z.array(Entry),
    persisted: z.number().int().nonnegative(),
    view: z.array(Message),
    queue: z.array(z.unknown()),
    turn: z.unknown(),
    lastOutcome: z.unknown(),
    ignored: z.object({ count: z.number(), recent: z.array(z.unknown()) }),
  }),
});

/**
 * Rebuilds a snapshot from its JSON (a string or the parsed value). It continues exactly as
 * the snapshot it was taken from would have.
 */
export function restoreSnapshot(json: string | PersistedTurnSnapshot): TurnSnapshot {
  let raw: unknown;
  try {
    raw = typeof json === 'string' ? JSON.parse(json) : json;
  } catch (error) {
    throw new SnapshotRestoreError(`snapshot is not JSON: ${(error as Error).message}`);
  }
  const parsed = PersistedShape.safeParse(raw);
  if (!parsed.success) throw new SnapshotRestoreError(`snapshot does not fit the turn machine:\n${z.prettifyError(parsed.error)}`);
  // Validated above, but rebuilt from the raw JSON: zod's output would reorder keys, and a
  // restored snapshot must serialize byte for byte as the one it came from.
  const persisted = raw as PersistedTurnSnapshot;
  const context: TurnContext = {
    ...persisted.context,
    entries: AppendOnlyList.from(persisted.context.entries),
    view: AppendOnlyList.from(persisted.context.view),
  };
  return turnMachine.resolveState({ value: persisted.value, context });
}
