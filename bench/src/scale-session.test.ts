import { describe, expect, it } from 'vitest';
import { scaleSession, ScaleSessionError, type PiLine } from './scale-session.js';

const line = (id: string, parentId: string | null, extra: Record<string, unknown> = {}): PiLine => ({ type: 'message', id, parentId, ...extra });

describe('scaleSession', () => {
  const source = [line('a', null), line('b', 'a'), line('c', 'b', { type: 'compaction', firstKeptEntryId: 'b' })];

  it('repeats the source to the exact size with fresh, unique ids', () => {
    const scaled = scaleSession(source, 7);
    expect(scaled.map((e) => e.id)).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6']);
    expect(scaled.map((e) => e.type)).toEqual(['message', 'message', 'compaction', 'message', 'message', 'compaction', 'message']);
  });

  it('chains each copy onto the last entry of the copy before it', () => {
    const scaled = scaleSession(source, 6);
    expect(scaled.map((e) => e.parentId)).toEqual([null, 's0', 's1', 's2', 's3', 's4']);
  });

  it('points references into the same copy', () => {
    const scaled = scaleSession(source, 6);
    expect(scaled[2]!.firstKeptEntryId).toBe('s1');
    expect(scaled[5]!.firstKeptEntryId).toBe('s4');
  });

  it('keeps a tree a tree: a branch of the source branches in every copy', () => {
    const tree = [line('r', null), line('x', 'r'), line('y', 'r'), line('l', 'y', { type: 'label', targetId: 'x' })];
    const scaled = scaleSession(tree, 8, 't');
    expect(scaled.map((e) => e.parentId)).toEqual([null, 't0', 't0', 't2', 't3', 't4', 't4', 't6']);
    expect(scaled[7]!.targetId).toBe('t5');
  });

  it('leaves the source untouched and copies its other fields', () => {
    const withData = [line('a', null, { message: { role: 'user', content: 'hi' } })];
    const scaled = scaleSession(withData, 2);
    expect(scaled[1]!.message).toEqual({ role: 'user', content: 'hi' });
    expect(withData[0]!.id).toBe('a');
  });

  it('refuses a bad size, an empty source and a parent that comes later', () => {
    expect(() => scaleSession(source, -1)).toThrow(ScaleSessionError);
    expect(() => scaleSession(source, 1.5)).toThrow(/non-negative integer, got 1.5/);
    expect(() => scaleSession([], 3)).toThrow(/empty session/);
    expect(() => scaleSession([line('a', 'b'), line('b', null)], 2)).toThrow(/entry a: parent b does not come before it/);
  });
});
