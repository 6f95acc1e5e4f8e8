import { describe, expect, it } from 'vitest';
import { restoreSnapshot, serializeSnapshot, SnapshotRestoreError } from '@tiller/core';
import { createTurnDriver } from '../src/turn-driver.js';

describe('snapshot persistence', () => {
  it('restores a turn parked on its tools, which then finishes as the original would', () => {
    const original = createTurnDriver();
    original.startTurn('go', 't');
    original.compactionDone();
    original.toolCalls({ id: 'a', name: 'ls' });
    const json = serializeSnapshot(original.snapshot);

    const resumed = createTurnDriver({}, { snapshot: restoreSnapshot(json), clockStart: 100 });
    const restored = resumed.snapshot;
    expect(restored.value).toEqual({ tools: 'running' });
    expect(restored.context.view.length).toBe(2);

    const fromOriginal = original.toolsDone();
    const fromRestored = resumed.send(original.steps.at(-1)!.event);
    expect(JSON.stringify(fromRestored)).toBe(JSON.stringify(fromOriginal));
    expect(serializeSnapshot(resumed.snapshot)).toBe(serializeSnapshot(original.snapshot));
  });

  it('refuses JSON that is not a turn snapshot, saying where', () => {
    expect(() => restoreSnapshot('{oops')).toThrow(SnapshotRestoreError);
    expect(() => restoreSnapshot(JSON.stringify({ value: 'flying', context: {} }))).toThrow(/value/);
    const d = createTurnDriver();
    d.startTurn('x', 't');
    const broken = JSON.parse(serializeSnapshot(d.snapshot));
    broken.context.entries[0].parentId = 7;
    expect(() => restoreSnapshot(broken)).toThrow(/entries\[0\]\.parentId|entries.*parentId/);
  });
});
