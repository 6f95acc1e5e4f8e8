import { describe, expect, it } from 'vitest';
import { CompactionConfigError, CompactionError, CompactionPolicyError, MalformedMessageError, TillerCompactionError } from './index.js';

describe('the errors of @tiller/compaction', () => {
  it('share one base with a code, recognised across two installed copies of the package', async () => {
    // Second copies of the modules, as a second install of the package would load.
    const stamp = Date.now();
    const copy = {
      ...((await import(/* @vite-ignore */ `./compaction-error.js?copy=${stamp}`)) as typeof import('./compaction-error.js')),
      ...((await import(/* @vite-ignore */ `./malformed-message-error.js?copy=${stamp}`)) as typeof import('./malformed-message-error.js')),
    };
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
    // The other copy's base is another class too: only the marker is shared.
    const otherBase = (await import(/* @vite-ignore */ `./tiller-compaction-error.js?copy=${stamp}`)) as typeof import('./tiller-compaction-error.js');
    class TheirConfigError extends otherBase.TillerCompactionError {
      readonly code = 'invalid_config';
    }
    const theirs = new TheirConfigError('createAgent: option "x" is invalid');
    expect(theirs instanceof TillerCompactionError).toBe(false);
    expect(TillerCompactionError.isInstance(theirs)).toBe(true);
    expect(CompactionConfigError.isInstance(theirs)).toBe(true);
    expect(CompactionError.isInstance(theirs)).toBe(false);
    expect(TillerCompactionError.isInstance(new Error('plain'))).toBe(false);
    expect(TillerCompactionError.isInstance({ code: 'aborted' })).toBe(false);
  });
});
