import { describe, expect, it } from 'vitest';
import type { Entry } from '../schema/entry.js';
import { resolveTurnConfig } from './config.js';
import { replay, start } from './step.js';
import { TurnConfigError } from './turn-config-error.js';

const entry = (id: string, parentId: string | null): Entry => ({ id, parentId, at: 'x', kind: 'message', message: { role: 'user', content: id } });

describe('resolveTurnConfig', () => {
  it('fills in the defaults', () => {
    expect(resolveTurnConfig()).toEqual({ maxIterations: 25, entries: [] });
  });

  it('accepts a path that starts mid-tree, as a resumed session gives it', () => {
    expect(resolveTurnConfig({ entries: [entry('b', 'a'), entry('c', 'b')] }).entries).toHaveLength(2);
  });

  it('names the option that is wrong', () => {
    expect(() => resolveTurnConfig({ maxIterations: 1.5 })).toThrow(/maxIterations/);
    expect(() => resolveTurnConfig({ entries: [entry('a', null), { ...entry('b', 'a'), kind: 'note' } as never] })).toThrow(/entries\[1\]\.kind/);
    expect(() => resolveTurnConfig({ entries: [entry('a', null), entry('c', 'b')] })).toThrow(TurnConfigError);
    expect(() => resolveTurnConfig({ entries: [entry('a', null), entry('c', 'b')] })).toThrow(/entries\[1\]\.parentId: expected "a"/);
    expect(() => resolveTurnConfig({ entries: { length: 0 } as never })).toThrow(/expected an array of entries\n.*at entries/);
    expect(() => resolveTurnConfig({ entries: [entry('a', null), null as never] })).toThrow(/entries\[1\]: expected an entry object/);
  });

  it('refuses a key it does not know, so a misspelt limit is not silently left at its default', () => {
    expect(() => start({ maxIteration: 4 } as never)).toThrow(TurnConfigError);
    expect(() => start({ maxIteration: 4 } as never)).toThrow(/Unrecognized key: "maxIteration"/);
    expect(() => replay({ entris: [] } as never, [])).toThrow(/"entris"/);
  });
});
