import type { Compactor, WindowManager } from '@tiller/compaction';
import type { ApprovalDecision, TurnOutcome } from '@tiller/core';
import type { LanguageModel } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, fromLanguageModel, type Agent, type AgentEvent, type AgentOptions, type TillerModel, type Tool } from './index.js';
import { scriptedModel } from '@tiller/testing/doubles';

describe('public types', () => {
  it('defineTool infers the arguments from the input schema', () => {
    const tool = defineTool({
      name: 'add',
      description: 'adds',
      input: z.object({ a: z.number(), b: z.number().default(1) }),
      execute: (args, context) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; b: number }>();
        expectTypeOf(context.signal).toEqualTypeOf<AbortSignal>();
        return args.a + args.b;
      },
    });
    expectTypeOf(tool).toExtend<Tool>();
  });

  it('the models and compactors fit createAgent', () => {
    expectTypeOf(scriptedModel([])).toExtend<TillerModel>();
    expectTypeOf(fromLanguageModel).parameter(0).toEqualTypeOf<LanguageModel>();
    expectTypeOf<ReturnType<typeof WindowManager>>().toExtend<NonNullable<AgentOptions['compactor']>>();
    expectTypeOf<Compactor<undefined>>().toExtend<NonNullable<AgentOptions['compactor']>>();
    expectTypeOf(createAgent).returns.toEqualTypeOf<Agent>();
  });

  it('the agent answers with outcomes and typed events', () => {
    expectTypeOf<Agent['prompt']>().returns.toEqualTypeOf<Promise<TurnOutcome>>();
    expectTypeOf<Agent['approve']>().parameter(0).toEqualTypeOf<ApprovalDecision | readonly ApprovalDecision[]>();
    expectTypeOf<Extract<AgentEvent, { type: 'text.delta' }>['delta']>().toEqualTypeOf<string>();
    expectTypeOf<Extract<AgentEvent, { type: 'turn.ended' }>['outcome']>().toEqualTypeOf<TurnOutcome>();
    expectTypeOf<Agent>().toExtend<AsyncIterable<AgentEvent>>();
  });
});
