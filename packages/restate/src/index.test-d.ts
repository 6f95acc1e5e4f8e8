import type { ApprovalDecision, Entry, TurnOutcome } from '@tiller/core';
import { defineTool } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { connect, type DurableEvent, type DurableSession, serve, type ServeOptions, type TurnEngine, type Worker } from './index.js';

describe('public types', () => {
  it('serve takes the shell\'s tools and models and gives a worker', () => {
    const tool = defineTool({ name: 'echo', description: 'echoes', input: z.object({ text: z.string() }), execute: ({ text }) => text });
    const options: ServeOptions = { model: scriptedModel([]), tools: [tool], onEvent: (event) => expectTypeOf(event).toEqualTypeOf<DurableEvent>() };
    expectTypeOf(serve(options)).toEqualTypeOf<Promise<Worker>>();
    // @ts-expect-error: the model is required
    void ({ tools: [tool] } satisfies ServeOptions);
  });

  it('a session answers like the shell\'s agent', () => {
    const session = connect({ ingressUrl: 'http://127.0.0.1:8080' }).session('s');
    expectTypeOf(session).toEqualTypeOf<DurableSession>();
    expectTypeOf(session.prompt).returns.toEqualTypeOf<Promise<TurnOutcome>>();
    expectTypeOf(session.approve).parameter(0).toEqualTypeOf<ApprovalDecision | readonly ApprovalDecision[]>();
    expectTypeOf(session.entries).returns.toEqualTypeOf<Promise<Entry[]>>();
  });

  it('an engine gets the blocking effects but the approval, which the driver waits on itself', () => {
    expectTypeOf<Parameters<TurnEngine['perform']>[0]['type']>().toEqualTypeOf<'maybe_compact' | 'call_llm' | 'run_tools'>();
  });
});
