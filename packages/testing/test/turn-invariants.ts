import { isBlockingEffect, type Effect, type TurnSnapshot } from '@tiller/core';
import { unansweredCalls } from '../src/transcript.js';
import type { StateValue } from 'xstate';

/** The blocking effect each state issues on entry (`idle` issues none). */
export function blockingEffectOf(value: StateValue): Effect['type'] | undefined {
  if (value === 'steering') return 'maybe_compact';
  if (value === 'calling') return 'call_llm';
  if (typeof value === 'object' && 'tools' in value) return value.tools === 'running' ? 'run_tools' : 'request_approval';
  return undefined;
}

/**
 * What must hold after every step: effects in order (one `persist` at most, before the
 * blocking effect; the blocking effect last and only on entering its state), every appended
 * entry announced, and at `steering` and `idle` a valid transcript.
 */
export function stepViolations(before: TurnSnapshot, after: TurnSnapshot, effects: Effect[]): string[] {
  const problems: string[] = [];
  const blocking = effects.filter(isBlockingEffect);
  const lastIsBlocking = effects.length > 0 && isBlockingEffect(effects.at(-1)!);
  if (blocking.length > 1) problems.push(`${blocking.length} blocking effects in one step`);
  if (blocking.length === 1 && !lastIsBlocking) problems.push('the blocking effect is not the last');
  const persistAt = effects.findIndex((e) => e.type === 'persist');
  if (effects.filter((e) => e.type === 'persist').length > 1) problems.push('more than one persist');
  if (persistAt >= 0 && blocking.length === 1 && persistAt > effects.indexOf(blocking[0]!)) problems.push('persist after the blocking effect');
  const moved = JSON.stringify(before.value) !== JSON.stringify(after.value);
  const expected = blockingEffectOf(after.value);
  if (moved && expected !== blocking[0]?.type) problems.push(`entered ${JSON.stringify(after.value)} with ${blocking[0]?.type ?? 'no'} blocking effect`);
  if (!moved && blocking.length > 0) problems.push(`issued ${blocking[0]!.type} without changing state`);
  if (after.context.persisted !== after.context.entries.length) problems.push('appended entries were not announced by persist');
  if (after.value === 'steering' || after.value === 'idle') problems.push(...unansweredCalls(after.context.view));
  if (after.value === 'idle' && after.context.turn !== null) problems.push('idle with a running turn');
  return problems;
}
