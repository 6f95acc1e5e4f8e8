import { ModelError, type ModelStreamPart, type TillerModel } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import type { AgentEvent } from '../agent/agent-event.js';
import { classifyModelError } from './classify-model-error.js';

// A second, separate instance of core's ModelError, as a host's own copy of @tiller/core (another
// version, or a second install) would make: `instanceof` fails across it, the marker does not.
async function foreignModelError(): Promise<typeof ModelError> {
  const secondCopy = `${new URL('../../../core/src/model/model-error.ts', import.meta.url).pathname}?second-copy`;
  const copy = (await import(/* @vite-ignore */ secondCopy)) as { ModelError: typeof ModelError };
  expect(copy.ModelError).not.toBe(ModelError);
  return copy.ModelError;
}

describe('a ModelError from another copy of @tiller/core', () => {
  it('is retried as the transient failure it says it is, after the wait it asks for', async () => {
    const Foreign = await foreignModelError();
    let calls = 0;
    const model: TillerModel = {
      id: 'own/model',
      async *stream(): AsyncIterable<ModelStreamPart> {
        calls += 1;
        if (calls === 1) throw new Foreign('transient', '503 overloaded', { retryAfterMs: 1 });
        yield { type: 'done', stopReason: 'stop', message: { role: 'assistant', content: [{ type: 'text', text: 'back' }] } };
      },
    };
    const agent = createAgent({ model });
    const retries: Array<Extract<AgentEvent, { type: 'llm.retry' }>> = [];
    agent.subscribe((event) => {
      if (event.type === 'llm.retry') retries.push(event);
    });
    const outcome = await agent.prompt('hi');
    await agent.close();
    expect(outcome.status).toBe('completed');
    expect(agent.lastReply()?.text).toBe('back');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ delayMs: 1, error: { kind: 'transient', message: '503 overloaded' } });
  });

  it('keeps its kind through classifyModelError', async () => {
    const Foreign = await foreignModelError();
    const overflow = new Foreign('overflow', 'the request is larger than the window');
    expect(classifyModelError(overflow)).toBe(overflow);
    expect(classifyModelError(new Foreign('transient', 'busy', { retryAfterMs: 20 }))).toMatchObject({ kind: 'transient', retryAfterMs: 20 });
  });
});
