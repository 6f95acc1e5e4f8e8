import type { Compactor } from '@tiller/compaction';
import { scriptedModel } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../src/index.js';

describe('an answer that arrives after its turn was aborted', () => {
  it('is dropped, and the next prompt still runs (found by agentPaths: prompt > abort > prompt)', async () => {
    // A compactor that gives up only when the turn's signal aborts: its answer comes after the abort.
    const holds: Compactor<unknown> = {
      name: 'holds',
      maybeCompact: (_acc, ctx) => new Promise((_, reject) => ctx.signal?.addEventListener('abort', () => setImmediate(() => reject(ctx.signal?.reason)))),
    };
    let asked = 0;
    const counting: Compactor<unknown> = {
      name: 'counting',
      maybeCompact: (acc, ctx) => (asked++ === 0 ? holds.maybeCompact(acc, ctx, undefined) : Promise.resolve({ acc, meta: { compacted: false, appended: [] } })),
    };
    const agent = createAgent({ model: scriptedModel([{ text: 'second answer' }]), compactor: counting });
    const first = agent.prompt('one');
    await new Promise((r) => setImmediate(r));
    await agent.abort('stop');
    expect(await first).toMatchObject({ status: 'aborted' });
    // Let the first turn's compactor answer (late) and be dropped.
    await new Promise((r) => setTimeout(r, 5));
    const second = await Promise.race([agent.prompt('two'), new Promise((r) => setTimeout(() => r('the prompt hangs'), 500))]);
    expect(second).toMatchObject({ status: 'completed' });
    await agent.close();
  });
});
