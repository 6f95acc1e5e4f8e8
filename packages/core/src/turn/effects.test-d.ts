import { expectTypeOf, it } from 'vitest';
import type { Message } from '../schema/message.js';
import type { BlockingEffect, CallLlmEffect, Effect, EffectType, MessageList, ProgressEvent } from './effects.js';
import type { ResultEvent, TurnEvent, TurnEventOf, TurnEventType } from './events.js';
import type { TurnOutcome, TurnStatus } from './outcome.js';
import type { StepResult } from './step.js';

it('the effect union is closed: a shell that switches over it handles exactly these', () => {
  expectTypeOf<EffectType>().toEqualTypeOf<'maybe_compact' | 'call_llm' | 'run_tools' | 'request_approval' | 'persist' | 'emit'>();
  expectTypeOf<BlockingEffect['type']>().toEqualTypeOf<'maybe_compact' | 'call_llm' | 'run_tools' | 'request_approval'>();
  expectTypeOf<StepResult['effects']>().toEqualTypeOf<Effect[]>();
});

it('narrows an effect by its type', () => {
  expectTypeOf<Extract<Effect, { type: 'call_llm' }>>().toEqualTypeOf<CallLlmEffect>();
  expectTypeOf<CallLlmEffect['context']>().toEqualTypeOf<MessageList>();
  expectTypeOf<ReturnType<MessageList['toArray']>>().toEqualTypeOf<Message[]>();
});

it('narrows an input by its type', () => {
  expectTypeOf<TurnEventType>().toEqualTypeOf<TurnEvent['type']>();
  expectTypeOf<TurnEventOf<'llm.done'>['id']>().toEqualTypeOf<string>();
  expectTypeOf<TurnEventOf<'llm.failed'>['error']['kind']>().toEqualTypeOf<'transient' | 'overflow' | 'fatal' | 'aborted'>();
  expectTypeOf<TurnEventOf<'tools.done'>>().toHaveProperty('id');
  expectTypeOf<ResultEvent['id']>().toEqualTypeOf<string>();
  expectTypeOf<BlockingEffect['id']>().toEqualTypeOf<string>();
});

it('an outcome says how the turn ended, with the details of that ending only', () => {
  expectTypeOf<TurnStatus>().toEqualTypeOf<'completed' | 'max_iterations' | 'aborted' | 'failed'>();
  expectTypeOf<Extract<TurnOutcome, { status: 'failed' }>>().toHaveProperty('reason');
  expectTypeOf<Extract<TurnOutcome, { status: 'max_iterations' }>>().not.toHaveProperty('reason');
  expectTypeOf<Extract<ProgressEvent, { type: 'turn.ended' }>['outcome']>().toEqualTypeOf<TurnOutcome>();
});
