import type { TurnSnapshot } from '@tiller/core';

/** A snapshot's state as a dotted path, the way the statechart names its states: `tools.running`. */
export function statePath(value: TurnSnapshot['value'] | string): string {
  if (typeof value === 'string') return value;
  const [key, child] = Object.entries(value as Record<string, unknown>)[0] ?? ['?', undefined];
  return child === undefined ? key : `${key}.${statePath(child as string)}`;
}
