import { describe, expect, it } from 'vitest';
import { CompactionConfigError, CompactionError, CompactionPolicyError, MalformedMessageError, TillerCompactionError } from './errors.js';

describe('the errors of @tiller/compaction', () => {
  it('share one base with a code, recognised across two installed copies of the package', async () => {
    // A second copy of the module, as a second install of the package would load.
    const copy = (await import(/* @vite-ignore */ `./errors.js?copy=${Date.now()}`)) as typeof import('./errors.js');
    expect(copy.CompactionError).not.toBe(CompactionError);
    const foreign = new copy.CompactionError('aborted', 'compaction aborted: user');
    expect(foreign instanceof CompactionError).toBe(false);
    expect(CompactionError.isInstance(foreign)).toBe(true);
    expect(TillerCompactionError.isInstance(foreign)).toBe(true);
    expect(foreign.code).toBe('aborted');
    const config = new CompactionConfigError('createAgent', 'keepRecentTokens', 'is invalid');
    expect(config.message).toBe('createAgent: option "keepRecentTokens" is invalid');
    expect(CompactionConfigError.isInstance(config)).toBe(true);
    expect(CompactionError.isInstance(config)).toBe(false);
    expect(CompactionPolicyError.isInstance(new CompactionPolicyError('no'))).toBe(true);
    const malformed = new copy.MalformedMessageError('estimateTokens: the message', 'content', 'expected an array of parts');
    expect(MalformedMessageError.isInstance(malformed)).toBe(true);
    expect(CompactionError.isInstance(malformed)).toBe(false);
    expect(malformed).toMatchObject({ code: 'malformed_message', where: 'estimateTokens: the message', field: 'content' });
    expect(TillerCompactionError.isInstance(new Error('plain'))).toBe(false);
    expect(TillerCompactionError.isInstance({ code: 'aborted' })).toBe(false);
  });
});
