import type { TurnEvent, TurnSnapshot } from '@tiller/core';
import { turnMachine } from '@tiller/core';
import { fireAndReport } from './fire-and-report.js';

type Inspected = { status: 'active'; value: unknown; context: Record<string, unknown> };

/**
 * The turn as the actor `@statelyai/inspect` is told about: it reads the machine's definition only
 * from `logic.config` of an actor-like object (a string id's extra info is dropped).
 */
export interface InspectedActor {
  sessionId: string;
  logic: { config: unknown };
  /** The pure core runs no actor: nothing can be sent to this one. */
  send(event: unknown): void;
  getSnapshot(): Inspected;
}

/** The part of `@statelyai/inspect`'s inspector the shell calls (its WebSocket and browser inspectors fit). */
export interface InspectorLike {
  actor(actor: InspectedActor | string, snapshot?: Inspected): void;
  event(actor: string, event: { type: string }, info?: { source?: string }): void;
  snapshot(actor: string, snapshot: Inspected, info?: { event?: { type: string } }): void;
}

/** The same reports for a plain listener. */
export type InspectionRecord =
  | { kind: 'actor'; actorId: string; snapshot: Inspected }
  | { kind: 'event'; actorId: string; event: TurnEvent }
  | { kind: 'snapshot'; actorId: string; snapshot: Inspected; event: TurnEvent };

export type InspectOption = InspectorLike | ((record: InspectionRecord) => void);

export interface Inspection {
  started(snapshot: TurnSnapshot): void;
  stepped(event: TurnEvent, snapshot: TurnSnapshot): void;
}

/**
 * Reports the turn the way XState's inspection does: the actor once, then every input the
 * shell fed and the snapshot it led to. The pure core runs no actor, so the shell reports for it.
 * The context is summarised: the session log itself would be too large to send at every step.
 */
export function createInspection(option: InspectOption | undefined, actorId: string, failed: (error: unknown) => void): Inspection | undefined {
  if (!option) return undefined;
  // What an inspector returns is handed on: an async one's promise may reject.
  const deliver =
    typeof option === 'function'
      ? (option as (record: InspectionRecord) => unknown)
      : (record: InspectionRecord): unknown => {
          switch (record.kind) {
            case 'actor':
              return option.actor({ sessionId: record.actorId, logic: { config: turnMachine.config }, send: () => undefined, getSnapshot: () => record.snapshot }, record.snapshot);
            case 'event':
              return option.event(record.actorId, record.event, { source: 'tiller.shell' });
            case 'snapshot':
              return option.snapshot(record.actorId, record.snapshot, { event: record.event });
            default: {
              const unknown: never = record;
              throw new TypeError(`unknown inspection record ${JSON.stringify(unknown)}`);
            }
          }
        };
  // An inspector is watching, not steering: one that fails (a closed socket) is told to the host, and the turn goes on.
  const report = (record: InspectionRecord) => fireAndReport(() => deliver(record), failed);
  return {
    started: (snapshot) => report({ kind: 'actor', actorId, snapshot: inspected(snapshot) }),
    stepped(event, snapshot) {
      report({ kind: 'event', actorId, event });
      report({ kind: 'snapshot', actorId, snapshot: inspected(snapshot), event });
    },
  };
}

function inspected(snapshot: TurnSnapshot): Inspected {
  const { context } = snapshot;
  return {
    status: 'active',
    value: snapshot.value,
    context: {
      entries: context.entries.length,
      messages: context.view.length,
      queued: context.queue.length,
      turn: context.turn ? { turnId: context.turn.turnId, iterations: context.turn.iterations, pending: context.turn.pending } : null,
      lastOutcome: context.lastOutcome,
    },
  };
}
