import { CompactionPolicy } from '@tiller/compaction';
import { createSessionLog, MemoryStore } from '@tiller/session';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentOptionsError, CompactionPolicyViolatedError, createAgent, defineTool, ShellError, type AgentEvent } from '../src/index.js';
import { scriptedModel } from '@tiller/testing';
import { nextEvent, recordEvents } from './helpers.js';

const bulky = defineTool({ name: 'bulky', description: 'returns a lot', input: z.object({}), execute: () => 'data '.repeat(400) });

describe('a compaction policy on the agent', () => {
  it('must hold for the model when the agent is made', () => {
    const model = scriptedModel([], { contextWindow: 32_000 });
    expect(() => createAgent({ model, compactionPolicy: CompactionPolicy.turnCap({ maxTurns: 100, maxTokensPerTurn: 10_000 }) })).toThrow(AgentOptionsError);
    expect(() => createAgent({ model, compactionPolicy: CompactionPolicy.turnCap({ maxTurns: 100, maxTokensPerTurn: 10_000 }) })).toThrow(
      /createAgent: compactionPolicy does not hold for model "scripted\/model": .*100 turns x 10,000 tokens/,
    );
    expect(() => createAgent({ model, compactionPolicy: { kind: 'disabled' } as never })).toThrow(/expected a CompactionPolicy[\s\S]*at compactionPolicy/);
  });

  it('refuses a turn beyond its cap before anything is written, counting the turns already in the session', async () => {
    const session = createSessionLog(new MemoryStore());
    const first = createAgent({ model: scriptedModel([{ text: 'one', delayMs: 10 }]), session });
    const done = first.prompt('first');
    await nextEvent(first, 'llm.started');
    await first.steer('a steer is not a turn');
    await done;

    const model = scriptedModel([{ text: 'two' }, { text: 'three' }], { contextWindow: 32_000 });
    const agent = createAgent({ model, session, compactionPolicy: CompactionPolicy.disabled({ maxTurns: 2 }) });
    expect(await agent.prompt('second')).toMatchObject({ status: 'completed' });
    const size = session.size;
    const refused = await agent.prompt('third').catch((error: unknown) => error);
    expect(CompactionPolicyViolatedError.isInstance(refused)).toBe(true);
    expect(ShellError.isInstance(refused) && refused.code).toBe('compaction_policy_violated');
    expect(refused).toMatchObject({ message: expect.stringMatching(/turn 3 exceeds the cap of 2 turns/), facts: { kind: 'turn_cap', turn: 3, maxTurns: 2 } });
    expect(session.size).toBe(size);
    expect(model.requests).toHaveLength(1);
  });

  it('stops a turn whose context breaks the premise at a boundary', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'bulky' }] }, { text: 'never' }], { contextWindow: 40_000 });
    const agent = createAgent({ model, tools: [bulky], compactionPolicy: CompactionPolicy.turnCap({ maxTurns: 2, maxTokensPerTurn: 300 }) });
    const events = recordEvents(agent);
    const outcome = await agent.prompt('fetch');
    expect(outcome).toMatchObject({ status: 'aborted', reason: expect.stringMatching(/^the compaction policy was broken: /) });
    expect(model.requests).toHaveLength(1);
    const reported = events.find((e): e is Extract<AgentEvent, { type: 'shell.error' }> => e.type === 'shell.error');
    expect(reported).toMatchObject({ where: 'compaction policy', error: { code: 'compaction_policy_violated', facts: { kind: 'turn_budget', turnsUsed: 1, maxTokensPerTurn: 300, limit: 300 } } });
    expect(CompactionPolicyViolatedError.isInstance(reported?.error)).toBe(true);
  });
});
