import { start, step } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { ContextMeter } from './context-meter.js';

const at = '2026-01-01T00:00:00.000Z';

describe('the context meter', () => {
  it("lends the core's own list of entries as the path (no second copy of the history) and follows it", () => {
    const first = start({ entries: [] });
    const meter = new ContextMeter(first.context.entries, 'be brief', []);
    expect(meter.path).toEqual([]);
    const before = meter.tokens();

    const { snapshot } = step(first, { type: 'turn.start', turnId: 't1', at, message: { role: 'user', content: 'a question with some words in it' } });
    meter.follow(snapshot.context.entries);
    expect(meter.path).toBe(snapshot.context.entries.lend());
    expect(meter.path.map((e) => e.id)).toEqual(snapshot.context.entries.toArray().map((e) => e.id));
    expect(meter.path.length).toBeGreaterThan(0);
    expect(meter.tokens()).toBeGreaterThan(before);
  });
});
