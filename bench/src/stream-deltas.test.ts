import { describe, expect, it } from 'vitest';
import { aiSdkDeltas, tillerDeltas } from './stream-deltas.js';

describe('the streaming row', () => {
  it("hands every delta of the mock stream to Tiller's subscriber and to the AI SDK's textStream", async () => {
    expect(await tillerDeltas(300)).toBe(300);
    expect(await aiSdkDeltas(300)).toBe(300);
  });
});
