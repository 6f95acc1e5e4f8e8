import type { CallLlmEffect, LlmFailure, TurnEventOf } from '@tiller/core';
import { abortableDelay } from '../abortable-delay.js';
import { now } from '../clock.js';
import type { TillerModel, ToolSpec } from '@tiller/core';
import { toModelFailure } from '../model/model-error.js';
import type { AgentLimits } from './agent-options.js';
import type { EventSink } from './event-hub.js';
import { retryDelay } from './retry-delay.js';

export interface CallModelDeps {
  model: TillerModel;
  toolSpecs: ToolSpec[];
  systemPrompt: string | undefined;
  /** The context's size in tokens as the ledger sees it (compactions applied), prompt included. */
  contextTokens(): number;
  limits: AgentLimits;
  /** The running turn's signal, read once when the call starts. */
  readonly signal: AbortSignal;
  events: EventSink;
}

type Answer = TurnEventOf<'llm.done'> | TurnEventOf<'llm.failed'>;

/**
 * Carries out `call_llm`: streams the model (deltas to subscribers), retries transient errors
 * with backoff, and answers with the final message or the classified failure.
 */
export async function callModel(effect: CallLlmEffect, deps: CallModelDeps): Promise<Answer> {
  const { model, signal, events } = deps;
  // Lent, not copied: a copy per call would cost O(history) on every model call.
  const messages = effect.context.lend();
  if (model.contextWindow !== undefined) {
    const tokens = deps.contextTokens();
    if (tokens > model.contextWindow) {
      return failed(effect, { kind: 'overflow', message: `the request (about ${tokens} tokens) is larger than the ${model.contextWindow}-token window of ${model.id}` });
    }
  }
  for (let attempt = 1; ; attempt++) {
    if (events.listening) events.publish({ type: 'llm.started', callId: effect.id, attempt, at: now() });
    try {
      const stream = model.stream({ messages, tools: effect.final ? [] : deps.toolSpecs, system: deps.systemPrompt, signal });
      for await (const part of stream) {
        switch (part.type) {
          case 'text-delta':
            if (events.listening) events.publish({ type: 'text.delta', callId: effect.id, delta: part.delta, at: now() });
            break;
          case 'thinking-delta':
            if (events.listening) events.publish({ type: 'thinking.delta', callId: effect.id, delta: part.delta, at: now() });
            break;
          case 'toolcall-delta':
            if (events.listening) events.publish({ type: 'toolcall.delta', callId: effect.id, toolCallId: part.toolCallId, toolName: part.toolName, delta: part.delta, at: now() });
            break;
          case 'done': {
            const at = now();
            if (events.listening) events.publish({ type: 'llm.finished', callId: effect.id, stopReason: part.stopReason, usage: part.usage, at });
            const message = { ...part.message, model: part.message.model ?? model.id, stopReason: part.stopReason, ...(part.usage ? { usage: part.usage } : {}) };
            return { type: 'llm.done', id: effect.id, at, message, stopReason: part.stopReason, ...(part.usage ? { usage: part.usage } : {}) };
          }
          default: {
            const unknown: never = part;
            throw new TypeError(`unknown model stream part ${JSON.stringify(unknown)}`);
          }
        }
      }
      if (signal.aborted) return failed(effect, toModelFailure(undefined, signal));
      return failed(effect, { kind: 'fatal', message: `the stream of ${model.id} ended without a final message` });
    } catch (error) {
      const failure = toModelFailure(error, signal);
      if (failure.kind !== 'transient' || attempt > deps.limits.maxRetries) return failed(effect, { kind: failure.kind, message: failure.message });
      const delayMs = retryDelay(attempt, deps.limits, failure.retryAfterMs);
      if (events.listening) events.publish({ type: 'llm.retry', callId: effect.id, attempt, delayMs, error: { kind: failure.kind, message: failure.message }, at: now() });
      try {
        await abortableDelay(delayMs, signal);
      } catch {
        return failed(effect, toModelFailure(undefined, signal));
      }
    }
  }
}

function failed(effect: CallLlmEffect, error: LlmFailure): Answer {
  return { type: 'llm.failed', id: effect.id, at: now(), error };
}
