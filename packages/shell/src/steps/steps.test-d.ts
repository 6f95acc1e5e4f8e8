import type { CompactionHooks, Compactor, TokenLedger } from '@tiller/compaction';
import type { CallLlmEffect, Entry, MaybeCompactEffect, RunToolsEffect, ToolCallPart, ToolOutcome, TurnEvent, TurnEventOf } from '@tiller/core';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type AgentEvent,
  type AgentLimits,
  type CompactionAnswer,
  type CompactionEvent,
  type CompactionOptions,
  type ModelCallAnswer,
  type ModelCallEvent,
  type ModelCallOptions,
  type PartialReplySink,
  type PlannedToolCall,
  planToolBatch,
  resolveLimits,
  runCompaction,
  runModelCall,
  runToolCall,
  type ToolBatchPlan,
  type ToolBatchPlanOptions,
  type ToolCallOptions,
  type ToolRefusalReason,
} from '../index.js';

describe('the steps a durable engine runs', () => {
  it('runModelCall answers a call_llm effect with the input that answers it', () => {
    expectTypeOf(runModelCall).parameters.toEqualTypeOf<[CallLlmEffect, ModelCallOptions]>();
    expectTypeOf(runModelCall).returns.resolves.toEqualTypeOf<ModelCallAnswer>();
    expectTypeOf<ModelCallAnswer>().toEqualTypeOf<TurnEventOf<'llm.done'> | TurnEventOf<'llm.failed'>>();
    expectTypeOf<ModelCallAnswer>().toExtend<TurnEvent>();
  });

  it('needs only the model; everything else is optional', () => {
    expectTypeOf<Pick<ModelCallOptions, 'model'>>().toExtend<ModelCallOptions>();
    expectTypeOf<ModelCallOptions['limits']>().toEqualTypeOf<Partial<AgentLimits> | undefined>();
    expectTypeOf<ModelCallOptions['signal']>().toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf<ModelCallOptions['partial']>().toEqualTypeOf<PartialReplySink | undefined>();
    expectTypeOf<ModelCallEvent['type']>().toEqualTypeOf<'llm.started' | 'llm.finished' | 'llm.retry' | 'text.delta' | 'thinking.delta' | 'toolcall.delta' | 'shell.error'>();
    expectTypeOf<Parameters<PartialReplySink['add']>>().toEqualTypeOf<[kind: 'text' | 'thinking', delta: string]>();
  });

  it('planToolBatch plans a run_tools effect as data the engine journals, and runToolCall runs one call', () => {
    expectTypeOf(planToolBatch).parameters.toEqualTypeOf<[RunToolsEffect, ToolBatchPlanOptions]>();
    expectTypeOf(planToolBatch).returns.resolves.toEqualTypeOf<ToolBatchPlan>();
    expectTypeOf<ToolBatchPlan['kind']>().toEqualTypeOf<'ask' | 'run'>();
    expectTypeOf<Extract<ToolBatchPlan, { kind: 'ask' }>['toolCallIds']>().toEqualTypeOf<string[]>();
    expectTypeOf<Extract<ToolBatchPlan, { kind: 'run' }>['calls']>().toEqualTypeOf<PlannedToolCall[]>();
    expectTypeOf<PlannedToolCall['kind']>().toEqualTypeOf<'refused' | 'run'>();
    expectTypeOf<Extract<PlannedToolCall, { kind: 'refused' }>['outcome']>().toEqualTypeOf<ToolOutcome>();
    // What the shell's tool.refused event carries, for a durable engine to tell its host the same.
    expectTypeOf<Extract<PlannedToolCall, { kind: 'refused' }>['refusal']>().toEqualTypeOf<{ reason: ToolRefusalReason; message: string }>();
    expectTypeOf<Extract<PlannedToolCall, { kind: 'refused' }>['refusal']['reason']>().toEqualTypeOf<Extract<AgentEvent, { type: 'tool.refused' }>['reason']>();
    expectTypeOf<PlannedToolCall['call']>().toEqualTypeOf<ToolCallPart>();
    expectTypeOf(runToolCall).parameters.toEqualTypeOf<[ToolCallPart, ToolCallOptions]>();
    expectTypeOf(runToolCall).returns.resolves.toEqualTypeOf<ToolOutcome>();
  });

  it('runCompaction answers a maybe_compact effect with compaction.done, telling onEvent what went wrong beside it', () => {
    expectTypeOf(runCompaction).parameters.toEqualTypeOf<[MaybeCompactEffect, CompactionOptions]>();
    expectTypeOf(runCompaction).returns.resolves.toEqualTypeOf<CompactionAnswer>();
    expectTypeOf<CompactionAnswer>().toEqualTypeOf<TurnEventOf<'compaction.done'>>();
    expectTypeOf<CompactionAnswer>().toExtend<TurnEvent>();
    // The compactor, the model and the path are needed; the rest is optional.
    expectTypeOf<Pick<CompactionOptions, 'compactor' | 'model' | 'path' | 'promptTokens'>>().toExtend<CompactionOptions>();
    expectTypeOf<CompactionOptions['compactor']>().toExtend<Compactor<unknown>>();
    expectTypeOf<CompactionOptions['path']>().toEqualTypeOf<readonly Entry[]>();
    expectTypeOf<CompactionOptions['ledger']>().toEqualTypeOf<TokenLedger | undefined>();
    expectTypeOf<CompactionOptions['hooks']>().toEqualTypeOf<CompactionHooks | undefined>();
    expectTypeOf<CompactionOptions['signal']>().toEqualTypeOf<AbortSignal | undefined>();
    expectTypeOf<CompactionEvent>().toEqualTypeOf<Extract<AgentEvent, { type: 'shell.error' }>>();
    expectTypeOf<NonNullable<CompactionOptions['onEvent']>>().toEqualTypeOf<(event: CompactionEvent) => void>();
  });

  it('resolveLimits fills the shell defaults: every limit is there afterwards', () => {
    expectTypeOf(resolveLimits).parameters.toEqualTypeOf<[limits: Partial<AgentLimits> | undefined, entryPoint: string]>();
    expectTypeOf(resolveLimits).returns.toEqualTypeOf<AgentLimits>();
    expectTypeOf<AgentLimits['maxToolConcurrency']>().toEqualTypeOf<number>();
  });
});
