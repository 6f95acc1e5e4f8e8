import { serializeSnapshot, type Message } from '@tiller/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memoryJournal, replayJournal, type AgentEvent } from '../src/index.js';
import { scriptedModel, type ScriptStep } from '@tiller/testing';

const tools = [
  defineTool({ name: 'echo', description: 'echoes', input: z.object({ text: z.string() }), execute: ({ text }) => text }),
  defineTool({ name: 'fail', description: 'throws', input: z.object({}), execute: () => { throw new Error('broken tool'); } }),
  defineTool({
    name: 'slow',
    description: 'takes a while',
    input: z.object({}),
    sequential: true,
    execute: (_args, { signal }) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve('slept'), 3);
      signal.addEventListener('abort', () => { clearTimeout(timer); reject(new Error('stopped')); });
    }),
  }),
];

const toolCall = fc.constantFrom(
  { name: 'echo', args: { text: 'hi' } },
  { name: 'fail', args: {} },
  { name: 'slow', args: {} },
  { name: 'missing', args: {} },
  { name: 'echo', args: { text: 7 } },
);

const step: fc.Arbitrary<ScriptStep> = fc.oneof(
  { weight: 4, arbitrary: fc.array(toolCall, { minLength: 1, maxLength: 3 }).map((toolCalls) => ({ toolCalls, text: 'calling' })) },
  { weight: 2, arbitrary: fc.constant({ text: 'done', thinking: 'thought' }) },
  { weight: 1, arbitrary: fc.constantFrom<'transient' | 'overflow' | 'fatal'>('transient', 'overflow', 'fatal').map((error) => ({ error })) },
);

/** Something the host does when the n-th event arrives. */
const hostAction = fc.record({
  at: fc.nat({ max: 40 }),
  kind: fc.constantFrom('none', 'abort', 'steer', 'follow_up'),
  approve: fc.boolean(),
});

function expectValidTranscript(messages: readonly Message[]) {
  for (const [i, message] of messages.entries()) {
    if (message.role === 'assistant') {
      const calls = message.content.filter((p) => p.type === 'toolCall').map((c) => c.id);
      const results = messages.slice(i + 1, i + 1 + calls.length).map((m) => (m.role === 'toolResult' ? m.toolCallId : m.role));
      expect(results).toEqual(calls);
    }
    if (message.role === 'toolResult') {
      const owner = messages.slice(0, i).findLast((m) => m.role === 'assistant');
      expect(owner?.role === 'assistant' && owner.content.some((p) => p.type === 'toolCall' && p.id === message.toolCallId)).toBe(true);
    }
  }
}

describe('any script, any host action: the turn ends, the transcript is valid, the journal replays', () => {
  it('holds for generated runs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), hostAction, async (script, action) => {
        const journal = memoryJournal();
        const model = scriptedModel(script);
        const agent = createAgent({
          model,
          tools,
          journal,
          policy: (call) => (call.name === 'slow' ? { decision: 'ask' } : { decision: 'allow' }),
          limits: { maxIterations: 3, maxRetries: 1, retryBaseDelayMs: 1 },
        });
        let seen = 0;
        const acted: Promise<unknown>[] = [];
        agent.subscribe((event: AgentEvent) => {
          if (event.type === 'approval.requested') {
            agent.approve(event.calls.map((c) => (action.approve ? { toolCallId: c.id, decision: 'allow' as const } : { toolCallId: c.id, decision: 'deny' as const, rationale: 'no' })));
          }
          if (seen++ !== action.at) return;
          if (action.kind === 'abort') acted.push(agent.abort('host'));
          if (action.kind === 'steer') acted.push(agent.steer('change of plan'));
          if (action.kind === 'follow_up') acted.push(agent.followUp('one more thing'));
        });
        const outcome = await agent.prompt('start');
        await Promise.all(acted);
        // A follow-up or steer that came after the turn ended waits for the next turn; run it out.
        if (agent.snapshot.context.queue.length > 0 && model.remaining > 0) await agent.prompt('again');

        expect(['completed', 'max_iterations', 'aborted', 'failed']).toContain(outcome.status);
        expectValidTranscript(agent.session.context());
        expect(agent.session.path().map((e) => e.id)).toEqual(agent.snapshot.context.entries.toArray().map((e) => e.id));
        const replay = replayJournal(journal.lines);
        expect(replay.divergence).toBeNull();
        expect(serializeSnapshot(replay.snapshot)).toBe(serializeSnapshot(agent.snapshot));
        await agent.close();
      }),
      { numRuns: 80 },
    );
  }, 60_000);
});
