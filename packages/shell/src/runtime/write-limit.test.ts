import { describe, expect, it } from 'vitest';
import { withinWriteLimit } from './write-limit.js';

describe('withinWriteLimit', () => {
  it('gives what the write gives, or its error, when it settles in time', async () => {
    expect(await withinWriteLimit(Promise.resolve('written'), 1_000, 'the append')).toBe('written');
    await expect(withinWriteLimit(Promise.reject(new Error('disk full')), 1_000, 'the append')).rejects.toThrow('disk full');
  });

  it('rejects, naming the write and the limit, when the write has not settled in time', async () => {
    await expect(withinWriteLimit(new Promise(() => undefined), 20, "the journal's append")).rejects.toThrow(
      "the journal's append did not settle within 20 ms (limits.writeTimeoutMs); whether it was written is not known",
    );
  });

  it('a write that fails after the limit is not reported as unhandled', async () => {
    let fail: (error: Error) => void = () => undefined;
    const write = new Promise<never>((_, reject) => (fail = reject));
    await expect(withinWriteLimit(write, 10, 'the append')).rejects.toThrow(/did not settle/);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    fail(new Error('too late'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
});
