import { type CallLlmEffect, start, step } from '@tiller/core';
import { scriptedModel } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentOptionsError } from '../errors/agent-options-error.js';
import { defineTool } from '../tools/define-tool.js';
import { runModelCall } from './run-model-call.js';
import type { ModelCallEvent } from '../effects/call-model.js';

const at = '2026-12-01T00:00:00.000Z';

/** The `call_llm` effect the core asks for after a prompt (and a boundary that compacts nothing). */
function modelEffect(text = 'hello'): CallLlmEffect {
  const begun = step(start({ maxIterations: 5, entries: [] }), { type: 'turn.start', turnId: 't', message: { role: 'user', content: text }, at });
  const boundary = begun.effects.find((e) => e.type === 'maybe_compact')!;
  const called = step(begun.snapshot, { type: 'compaction.done', id: boundary.id, at, meta: { compacted: false }, appended: [] });
  const effect = called.effects.find((e) => e.type === 'call_llm');
  if (effect?.type !== 'call_llm') throw new Error('the core asked for no model call');
  return effect;
}

const lookup = defineTool({ name: 'lookup', description: 'looks up', input: z.object({ q: z.string() }), execute: ({ q }) => q });

describe('runModelCall', () => {
  it('answers llm.done with the model message, offering the tools and the system prompt', async () => {
    const model = scriptedModel([{ text: 'hi there' }]);
    const effect = modelEffect();
    const answer = await runModelCall(effect, { model, tools: [lookup], systemPrompt: 'be brief' });
    expect(answer).toMatchObject({ type: 'llm.done', id: effect.id, stopReason: 'stop', message: { role: 'assistant', content: [{ type: 'text', text: 'hi there' }] } });
    expect(model.requests[0]).toMatchObject({ toolNames: ['lookup'], system: 'be brief' });
    // Plain data: what an engine journals is what it gets back.
    expect(JSON.parse(JSON.stringify(answer))).toEqual(answer);
  });

  it('retries a transient error within the limits, telling onEvent, and streams into the partial sink', async () => {
    const model = scriptedModel(['transient', { text: 'second try' }]);
    const events: ModelCallEvent[] = [];
    const streamed: string[] = [];
    const answer = await runModelCall(modelEffect(), {
      model,
      limits: { retryBaseDelayMs: 1, retryMaxDelayMs: 2 },
      onEvent: (event) => events.push(event),
      partial: { begin: (_, m) => streamed.push(`begin ${m}`), add: (kind, delta) => streamed.push(`${kind} ${delta}`), end: () => streamed.push('end') },
    });
    expect(answer.type).toBe('llm.done');
    const types = events.map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(['llm.started', 'llm.retry', 'llm.started']);
    expect(new Set(types.slice(3, -1))).toEqual(new Set(['text.delta']));
    expect(events.filter((e) => e.type === 'llm.started').map((e) => (e as { attempt: number }).attempt)).toEqual([1, 2]);
    expect(events.at(-1)?.type).toBe('llm.finished');
    expect(streamed[0]).toBe(`begin ${model.id}`);
    expect(streamed.filter((s) => s.startsWith('text ')).join('').replaceAll('text ', '')).toBe('second try');
    expect(streamed.at(-1)).toBe('end');
  });

  it('fails a transient error past maxRetries, and an overflow without calling the model', async () => {
    const failing = await runModelCall(modelEffect(), { model: scriptedModel(['transient', 'transient']), limits: { maxRetries: 1, retryBaseDelayMs: 1 } });
    expect(failing).toMatchObject({ type: 'llm.failed', error: { kind: 'transient' } });

    const small = scriptedModel([{ text: 'never' }], { contextWindow: 100 });
    const overflow = await runModelCall(modelEffect(), { model: small, contextTokens: 101 });
    expect(overflow).toMatchObject({ type: 'llm.failed', error: { kind: 'overflow' } });
    expect(small.requests).toHaveLength(0);
  });

  it('answers llm.failed of kind aborted when the signal aborts, even for a model that never answers', async () => {
    const controller = new AbortController();
    const answer = runModelCall(modelEffect(), { model: scriptedModel(['hang']), signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    expect(await answer).toMatchObject({ type: 'llm.failed', error: { kind: 'aborted' } });
  });

  it('never throws for what the model does: a model whose stream() throws is a failure', async () => {
    const broken = { id: 'broken', stream: () => { throw new TypeError('no stream today'); } };
    expect(await runModelCall(modelEffect(), { model: broken })).toMatchObject({ type: 'llm.failed', error: { message: expect.stringContaining('no stream today') } });
  });

  it('refuses bad limits with the shell options error naming the limit', async () => {
    await expect(runModelCall(modelEffect(), { model: scriptedModel([]), limits: { maxRetries: -1 } })).rejects.toThrow(AgentOptionsError);
    await expect(runModelCall(modelEffect(), { model: scriptedModel([]), limits: { maxRetries: -1 } })).rejects.toThrow(/runModelCall: invalid options:[\s\S]*at limits\.maxRetries/);
  });
});
