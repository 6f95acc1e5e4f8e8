import { produce } from 'immer';
import { initialTransition } from 'xstate';
import { resolveTurnConfig, type TurnConfig } from './config.js';
import type { TurnContext } from './context.js';
import type { Effect } from './effects.js';
import { parseEvent } from './parse-event.js';
import { endTurn } from './update/end-turn.js';
import { turnMachine } from './machine.js';
import { pureTransition } from './pure-transition.js';
import type { TurnSnapshot } from './snapshot.js';

export interface StepResult {
  snapshot: TurnSnapshot;
  /** In order: `persist` before `emit`s, and the blocking effect, if any, last. */
  effects: Effect[];
}

/** The first snapshot: idle, over the given session path. Throws `TurnConfigError` for a bad config. */
export function start(config: TurnConfig = {}): TurnSnapshot {
  const [snapshot] = initialTransition(turnMachine, resolveTurnConfig(config));
  return snapshot;
}

/**
 * Feeds one input to the turn. Pure: the same snapshot and input always give the same result.
 * Never throws; an input that does not fit ends the running turn as `failed`.
 */
export function step(snapshot: TurnSnapshot, input: unknown): StepResult {
  const event = parseEvent(input);
  try {
    const [next, actions] = pureTransition(snapshot, event);
    if (next.status === 'error') return crashed(snapshot, next.error, event.at);
    const effects = actions
      .filter((a) => !a.type.startsWith('xstate.'))
      .map((a) => ({ type: a.type, ...(a.params as object) }) as Effect);
    return { snapshot: next, effects };
  } catch (error) {
    return crashed(snapshot, error, event.at);
  }
}

/**
 * The last line of defence: if the machine itself throws, the turn ends `failed` with the
 * reason and the transcript still closed, rather than the exception reaching the shell.
 */
function crashed(snapshot: TurnSnapshot, error: unknown, at: string | undefined): StepResult {
  const reason = `the turn core failed: ${error instanceof Error ? error.message : String(error)}`;
  const before = snapshot.context;
  const context = produce(before, (draft) => {
    endTurn(draft, { status: 'failed', reason }, at ?? before.entries.last()?.at ?? '', before.turn?.batch?.calls ?? []);
    draft.persisted = draft.entries.length;
  });
  const appended = context.entries.slice(before.persisted);
  const effects: Effect[] = appended.length > 0 ? [{ type: 'persist', entries: appended }] : [];
  if (context.lastOutcome && context.lastOutcome !== before.lastOutcome) {
    effects.push({ type: 'emit', event: { type: 'turn.ended', outcome: context.lastOutcome } });
  }
  return { snapshot: turnMachine.resolveState({ value: 'idle', context: context as TurnContext }), effects };
}

/** Steps through `events` from `start(config)`; the snapshot and every effect, in order. */
export function replay(config: TurnConfig, events: Iterable<unknown>): StepResult {
  let snapshot = start(config);
  const effects: Effect[] = [];
  for (const event of events) {
    const result = step(snapshot, event);
    snapshot = result.snapshot;
    for (const effect of result.effects) effects.push(effect);
  }
  return { snapshot, effects };
}
