import { describe, expect, it } from 'vitest';
import { ModelError } from '../model/model-error.js';
import { TurnConfigError } from '../turn/turn-config-error.js';
import { TillerCoreError } from './tiller-core-error.js';

describe('TillerCoreError', () => {
  it('carries a code, and each error class knows its own instances', () => {
    const error = new ModelError('transient', 'rate limited', { retryAfterMs: 1000 });
    expect(error.code).toBe('model_failed');
    expect(ModelError.isInstance(error)).toBe(true);
    expect(TillerCoreError.isInstance(error)).toBe(true);
    expect(TurnConfigError.isInstance(error)).toBe(false);
    expect(ModelError.isInstance(new Error('rate limited'))).toBe(false);
    expect(TillerCoreError.isInstance(null)).toBe(false);
  });

  it('recognises an error made by another copy of the package, where instanceof fails', async () => {
    // A query string makes Vite load a second, separate instance of the modules.
    const secondCopy = '../model/model-error.js?second-copy';
    const copy = (await import(/* @vite-ignore */ secondCopy)) as typeof import('../model/model-error.js');
    const foreign = new copy.ModelError('overflow', 'too long');
    expect(foreign).not.toBeInstanceOf(ModelError);
    expect(ModelError.isInstance(foreign)).toBe(true);
    expect(TillerCoreError.isInstance(foreign)).toBe(true);
    expect(TurnConfigError.isInstance(foreign)).toBe(false);
  });
});
