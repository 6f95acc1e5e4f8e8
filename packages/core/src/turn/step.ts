import { initialTransition } from 'xstate';
import { resolveTurnConfig, type TurnConfig } from './config.js';
import type { Effect } from './effects.js';
import { parseEvent } from './parse-event.js';
import { finish } from './reducers.js';
import { turnMachine } from './machine.js';
import { pureTransition } from './pure-transition.js';
import { applyUpdate } from './update/apply-update.js';
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
    const effects = actions.filter((a) => !a.type.startsWith('xstate.')).map(toEffect);
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
  const { context, announcements } = applyUpdate(before, (work, emit) =>
    finish(work, { status: 'failed', reason }, at ?? before.entries.last()?.at ?? '', emit, before.turn?.batch?.calls ?? []),
  );
  return { snapshot: turnMachine.resolveState({ value: 'idle', context }), effects: announcements.map(toEffect) };
}

/** An action the machine listed, as the effect the shell carries out. */
function toEffect(action: { type: string; params?: unknown }): Effect {
  return { type: action.type, ...(action.params as object) } as Effect;
}

/** Steps through `events` from `start(config)`; the snapshot and every effect, in order. */
export function replay(config: TurnConfig, events: Iterable<unknown>): StepResult {
  return replayFrom(start(config), events);
}

/**
 * Steps through `events` from a snapshot kept earlier (a restored one, or one to branch from:
 * it is not changed); the last snapshot and every effect, in order.
 */
export function replayFrom(snapshot: TurnSnapshot, events: Iterable<unknown>): StepResult {
  let current = snapshot;
  const effects: Effect[] = [];
  for (const event of events) {
    const result = step(current, event);
    current = result.snapshot;
    for (const effect of result.effects) effects.push(effect);
  }
  return { snapshot: current, effects };
}
