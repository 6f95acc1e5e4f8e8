import type { Compactor, PolicyViolationFacts, WindowManager } from '@tiller/compaction';
import type { ApprovalDecision, TurnOutcome } from '@tiller/core';
import type { ReadWarning } from '@tiller/session';
import { createInspector, createWebSocketInspector } from '@statelyai/inspect';
import type { LanguageModel } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel } from '@tiller/testing';
import * as shell from './index.js';
import {
  ApprovalError,
  CompactionPolicyViolatedError,
  createAgent,
  defineTool,
  fromLanguageModel,
  resumeAgent,
  SessionBusyError,
  ShellError,
  type Agent,
  type AgentEvent,
  type AgentOptions,
  type InspectOption,
  type JournalHeader,
  type JournalLine,
  type ShellErrorCode,
  type TillerModel,
  type Tool,
  type ToolRefusalReason,
} from './index.js';

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
    expectTypeOf(resumeAgent).returns.toEqualTypeOf<Promise<Agent>>();
  });

  it('the agent answers with outcomes and typed events', () => {
    expectTypeOf<Agent['prompt']>().returns.toEqualTypeOf<Promise<TurnOutcome>>();
    expectTypeOf<Agent['lastReply']>().returns.toEqualTypeOf<shell.TurnReply | undefined>();
    expectTypeOf<shell.TurnReply['text']>().toEqualTypeOf<string>();
    expectTypeOf<Agent['approve']>().parameter(0).toEqualTypeOf<ApprovalDecision | readonly ApprovalDecision[]>();
    expectTypeOf<Extract<AgentEvent, { type: 'text.delta' }>['delta']>().toEqualTypeOf<string>();
    expectTypeOf<Extract<AgentEvent, { type: 'turn.ended' }>['outcome']>().toEqualTypeOf<TurnOutcome>();
    expectTypeOf<Extract<AgentEvent, { type: 'shell.error' }>['error']>().toEqualTypeOf<ShellError | undefined>();
    expectTypeOf<Extract<AgentEvent, { type: 'session.warning' }>['warning']>().toEqualTypeOf<ReadWarning>();
    expectTypeOf<Extract<AgentEvent, { type: 'tool.refused' }>['reason']>().toEqualTypeOf<ToolRefusalReason>();
    expectTypeOf<ToolRefusalReason>().toEqualTypeOf<'unknown_tool' | 'unreadable_arguments' | 'invalid_arguments' | 'schema_failed' | 'denied'>();
    expectTypeOf<Agent>().toExtend<AsyncIterable<AgentEvent>>();
  });

  it('every error is a ShellError with a code, and isInstance narrows to its own class', () => {
    const error: unknown = new Error('x');
    if (ApprovalError.isInstance(error)) expectTypeOf(error).toEqualTypeOf<ApprovalError>();
    if (ShellError.isInstance(error)) expectTypeOf(error.code).toEqualTypeOf<ShellErrorCode>();
    if (CompactionPolicyViolatedError.isInstance(error)) expectTypeOf(error.facts).toEqualTypeOf<PolicyViolationFacts>();
    expectTypeOf<ApprovalError>().toExtend<ShellError>();
    expectTypeOf<SessionBusyError>().toExtend<ShellError>();
    expectTypeOf<(typeof SessionBusyError)['code']>().toEqualTypeOf<'session_busy'>();
  });

  it("@statelyai/inspect's inspectors fit the inspect option", () => {
    expectTypeOf(createInspector({ send: () => undefined })).toExtend<InspectOption>();
    expectTypeOf<ReturnType<typeof createWebSocketInspector>>().toExtend<InspectOption>();
  });

  it('a journal header names the model; tool lines carry their time', () => {
    expectTypeOf<JournalHeader['model']>().toEqualTypeOf<{ id: string; contextWindow: number | null }>();
    expectTypeOf<JournalHeader['sessionSize']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Extract<JournalLine, { type: 'tool.finished' }>['at']>().toEqualTypeOf<string>();
    // A torn journal line is told as a session's read warnings are.
    expectTypeOf(shell.tornLineWarning).returns.toEqualTypeOf<ReadWarning>();
    expectTypeOf<Extract<AgentEvent, { type: 'journal.warning' }>['warning']>().toEqualTypeOf<ReadWarning>();
  });

  it('keeps helpers and option schemas out of the API', () => {
    expectTypeOf(shell).not.toHaveProperty('effectDigest');
    expectTypeOf(shell).not.toHaveProperty('retryDelay');
    expectTypeOf(shell).not.toHaveProperty('AgentOptions');
    expectTypeOf(shell).not.toHaveProperty('AgentLimits');
    expectTypeOf(shell).not.toHaveProperty('createTurnRuntime');
    // The durable seam is the steps in steps/, not the shell's internals.
    expectTypeOf(shell).not.toHaveProperty('runToolBatch');
    expectTypeOf(shell).not.toHaveProperty('callModel');
  });
});
