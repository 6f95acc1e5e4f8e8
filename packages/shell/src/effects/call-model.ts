import { setTimeout as delay } from 'node:timers/promises';
import { type CallLlmEffect, type LlmFailure, ModelError, type ModelStreamPart, type TillerModel, type ToolSpec, type TurnEventOf } from '@tiller/core';
import type { AgentLimits } from '../agent/agent-options.js';
import type { ShellEvent } from '../agent/agent-event.js';
import { now } from '../clock.js';
import { toModelFailure } from '../model/model-error.js';
import { retryDelay } from '../model/retry-delay.js';
import { abortable } from '../runtime/abortable.js';
import type { PartialReplySink } from '../runtime/partial-reply.js';
import { type WorkSignal, workSignal } from '../runtime/work-signal.js';
import { describeThrown } from '../describe-thrown.js';
import { replyProblem } from '../model/reply-problem.js';
import { streamParts } from '../model/stream-parts.js';

type Answer = TurnEventOf<'llm.done'> | TurnEventOf<'llm.failed'>;

/** What a model call publishes: each attempt's start and end, its deltas, its retries, and an abort listener of the model's that failed. */
export type ModelCallEvent = Extract<ShellEvent, { type: 'llm.started' | 'llm.finished' | 'llm.retry' | 'text.delta' | 'thinking.delta' | 'toolcall.delta' | 'shell.error' }>;

/**
 * What a model call reads: the shell's effect context has all of it, and a durable engine's step
 * (`runModelCall`) builds just this.
 */
export interface ModelCallContext {
  readonly model: TillerModel;
  readonly toolSpecs: ToolSpec[];
  readonly options: {
    readonly systemPrompt?: string | undefined;
    readonly limits: Pick<AgentLimits, 'maxRetries' | 'retryBaseDelayMs' | 'retryMaxDelayMs' | 'firstTokenTimeoutMs' | 'streamIdleTimeoutMs'>;
  };
  readonly meter: { tokens(): number };
  readonly partial: PartialReplySink;
  publish(event: ModelCallEvent): void;
}

/**
 * `call_llm`: streams the model (deltas to subscribers), retries transient errors with backoff, and
 * answers with the final message or the classified failure. Every read of the stream is raced
 * against the turn's signal, so a model that ignores the signal cannot hold the turn.
 */
export async function callModel(effect: CallLlmEffect, shell: ModelCallContext, signal: AbortSignal): Promise<Answer> {
  try {
    return await attemptModel(effect, shell, signal);
  } finally {
    shell.partial.end(effect.id);
  }
}

async function attemptModel(effect: CallLlmEffect, shell: ModelCallContext, signal: AbortSignal): Promise<Answer> {
  const { model } = shell;
  // Lent, not copied: a copy per call would cost O(history) on every model call.
  const messages = effect.context.lend();
  if (model.contextWindow !== undefined) {
    const tokens = shell.meter.tokens();
    if (tokens > model.contextWindow) {
      return failed(effect, { kind: 'overflow', message: `the request (about ${tokens} tokens) is larger than the ${model.contextWindow}-token window of ${model.id}` });
    }
  }
  const { limits } = shell.options;
  for (let attempt = 1; ; attempt++) {
    shell.publish({ type: 'llm.started', callId: effect.id, attempt, at: now() });
    shell.partial.begin(effect.id, model.id);
    // Its own signal per attempt (the turn's abort and the attempt's time limits reach it): a
    // stream that timed out is told to stop, the turn goes on.
    const work = workSignal(signal, (error) =>
      shell.publish({ type: 'shell.error', where: `model ${model.id} abort listener`, message: describeThrown(error), at: now() }),
    );
    const request = { messages, tools: effect.final ? [] : shell.toolSpecs, system: shell.options.systemPrompt, signal: work.signal };
    try {
      const done = await streamToEnd(() => streamParts(model, model.stream(request)), effect, shell, work);
      if (done) {
        const at = now();
        const usage = done.usage ? { usage: done.usage } : {};
        const message = { ...done.message, model: done.message.model ?? model.id, stopReason: done.stopReason, ...usage };
        const answer: Answer = { type: 'llm.done', id: effect.id, at, message, stopReason: done.stopReason, ...usage };
        const problem = replyProblem(message);
        if (problem) return failed(effect, { kind: 'fatal', message: `the reply of ${model.id} is not an assistant message Tiller can keep: ${problem}` });
        shell.publish({ type: 'llm.finished', callId: effect.id, stopReason: done.stopReason, usage: done.usage, at });
        return answer;
      }
      if (signal.aborted) return failed(effect, toModelFailure(undefined, signal));
      return failed(effect, { kind: 'fatal', message: `the stream of ${model.id} ended without a final message` });
    } catch (error) {
      const failure = toModelFailure(error, signal);
      if (failure.kind !== 'transient' || attempt > limits.maxRetries) return failed(effect, { kind: failure.kind, message: failure.message });
      const delayMs = retryDelay(attempt, limits, failure.retryAfterMs);
      shell.publish({ type: 'llm.retry', callId: effect.id, attempt, delayMs, error: { kind: failure.kind, message: failure.message }, at: now() });
      try {
        await delay(delayMs, undefined, { signal });
      } catch {
        return failed(effect, toModelFailure(undefined, signal));
      }
    }
  }
}

/**
 * Opens the stream and reads it, publishing its deltas, up to its `done` part (undefined when it
 * ends without one). The attempt's work ends with the reading, whatever ended it.
 */
async function streamToEnd(open: () => AsyncIterator<ModelStreamPart>, effect: CallLlmEffect, shell: ModelCallContext, attempt: WorkSignal) {
  const { firstTokenTimeoutMs, streamIdleTimeoutMs } = shell.options.limits;
  let parts: AsyncIterator<ModelStreamPart> | undefined;
  try {
    parts = open();
    for (let first = true; ; first = false) {
      const next = await withinTime(parts.next(), attempt, first ? firstTokenTimeoutMs : streamIdleTimeoutMs, () =>
        first
          ? `${shell.model.id} streamed nothing within ${firstTokenTimeoutMs} ms (limits.firstTokenTimeoutMs)`
          : `the stream of ${shell.model.id} went quiet for ${streamIdleTimeoutMs} ms (limits.streamIdleTimeoutMs)`,
      );
      if (next.done) return undefined;
      const part = next.value;
      switch (part.type) {
        case 'text-delta':
          shell.partial.add('text', part.delta);
          shell.publish({ type: 'text.delta', callId: effect.id, delta: part.delta, at: now() });
          break;
        case 'thinking-delta':
          shell.partial.add('thinking', part.delta);
          shell.publish({ type: 'thinking.delta', callId: effect.id, delta: part.delta, at: now() });
          break;
        case 'toolcall-delta':
          shell.publish({ type: 'toolcall.delta', callId: effect.id, toolCallId: part.toolCallId, toolName: part.toolName, delta: part.delta, at: now() });
          break;
        case 'done':
          return part;
        default: {
          const unknown: never = part;
          throw new TypeError(`unknown model stream part ${JSON.stringify(unknown)}`);
        }
      }
    }
  } finally {
    attempt.end();
    closeStream(parts);
  }
}

/**
 * Tells a stream it is no longer read. Not awaited: one that ignores the signal may never finish
 * closing. And whatever its `return()` does (throws, rejects), the reply it gave stands.
 */
function closeStream(parts: AsyncIterator<ModelStreamPart> | undefined): void {
  try {
    void Promise.resolve(parts?.return?.()).catch(() => undefined);
  } catch {
    // Its reply, if it gave one, is already read.
  }
}

/**
 * One read of the stream, raced against the attempt's signal (the turn's abort or a time limit).
 * At the limit the attempt's stream is told to stop and the read fails as transient, so the call
 * is retried.
 */
async function withinTime<T>(read: Promise<T>, attempt: WorkSignal, timeoutMs: number, describe: () => string): Promise<T> {
  const timer = setTimeout(() => attempt.stop(new ModelError('transient', describe())), timeoutMs);
  try {
    return await abortable(read, attempt.signal);
  } finally {
    clearTimeout(timer);
  }
}

function failed(effect: CallLlmEffect, error: LlmFailure): Answer {
  return { type: 'llm.failed', id: effect.id, at: now(), error };
}
