import { replay, start, step, type TurnSnapshot } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { EVENTS_PER_TURN, recordTurns } from './record-turns.js';

function fold(snapshot: TurnSnapshot, events: readonly unknown[]): TurnSnapshot {
  for (const event of events) snapshot = step(snapshot, event).snapshot;
  return snapshot;
}

describe('recordTurns', () => {
  it('records complete turns that step back to idle, each with one tool round', () => {
    const events = recordTurns(start(), 3);
    expect(events).toHaveLength(3 * EVENTS_PER_TURN);
    const end = fold(start(), events);
    expect(end.value).toBe('idle');
    expect(end.context.lastOutcome).toMatchObject({ status: 'completed', turnId: 'bench-2' });
    const roles = end.context.entries.toArray().map((e) => (e.kind === 'message' ? e.message.role : e.kind));
    expect(roles).toEqual(Array.from({ length: 3 }, () => ['user', 'assistant', 'toolResult', 'assistant']).flat());
  });

  it("continues the session it is given, and replay from the session's start reproduces it", () => {
    const first = fold(start(), recordTurns(start(), 1));
    const session = first.context.entries.toArray();
    const events = recordTurns(start({ entries: session }), 2, 'more');
    const replayed = replay({ entries: session }, events);
    expect(replayed.snapshot.context.entries.length).toBe(session.length + 2 * 4);
    expect(replayed.snapshot.context.entries.at(session.length)?.parentId).toBe(session.at(-1)!.id);
    expect(replayed.snapshot.context.lastOutcome).toMatchObject({ status: 'completed', turnId: 'more-1' });
  });
});
