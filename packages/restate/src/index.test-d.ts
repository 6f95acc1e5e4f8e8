import type { ApprovalDecision, Entry, IgnoredNote, TurnOutcome, TurnSnapshot } from '@tiller/core';
import { type AgentEvent, defineTool } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { connect, dropMessages, type DurableEvent, type DurableSession, type DurableToolEvent, type PostResult, serve, type ServeOptions, type TurnEngine, type TurnMessage, type Worker } from './index.js';

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

  it('a steer tells whether it reached the running turn, or was dropped with the core note', () => {
    const session = connect({ ingressUrl: 'http://127.0.0.1:8080' }).session('s');
    expectTypeOf(session.steer).returns.toEqualTypeOf<Promise<PostResult>>();
    expectTypeOf(session.followUp).returns.toEqualTypeOf<Promise<PostResult>>();
    expectTypeOf<PostResult['delivered']>().toEqualTypeOf<'turn' | 'dropped'>();
    expectTypeOf<Extract<PostResult, { delivered: 'dropped' }>['note']>().toEqualTypeOf<IgnoredNote>();
    // @ts-expect-error: only a dropped message has a note
    void ((result: Extract<PostResult, { delivered: 'turn' }>) => result.note);
    expectTypeOf(dropMessages).parameters.toEqualTypeOf<[snapshot: TurnSnapshot, messages: readonly TurnMessage[]]>();
    expectTypeOf(dropMessages).returns.toEqualTypeOf<IgnoredNote[]>();
  });

  it('onEvent gets the shell\'s events of each tool call beside the core\'s progress events', () => {
    expectTypeOf<Extract<DurableEvent['event'], { type: DurableToolEvent['type'] }>>().toEqualTypeOf<DurableToolEvent>();
    expectTypeOf<DurableToolEvent['type']>().toEqualTypeOf<'tool.refused' | 'tool.started' | 'tool.finished' | 'tool.interrupted'>();
    expectTypeOf<Extract<DurableToolEvent, { type: 'tool.refused' }>>().toEqualTypeOf<Extract<AgentEvent, { type: 'tool.refused' }>>();
  });

  it('an engine gets the blocking effects but the approval, which the driver waits on itself', () => {
    expectTypeOf<Parameters<TurnEngine['perform']>[0]['type']>().toEqualTypeOf<'maybe_compact' | 'call_llm' | 'run_tools'>();
  });
});
