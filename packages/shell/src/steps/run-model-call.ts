import type { CallLlmEffect, TillerModel, TurnEventOf } from '@tiller/core';
import { type AgentLimits, resolveLimits } from '../agent/agent-options.js';
import { now } from '../clock.js';
import { callModel, type ModelCallContext, type ModelCallEvent } from '../effects/call-model.js';
import type { PartialReplySink } from '../runtime/partial-reply.js';
import type { Tool } from '../tools/define-tool.js';
import { describeThrown } from '../describe-thrown.js';

/** How `runModelCall` calls the model: what the agent's options say, and what the engine knows. */
export interface ModelCallOptions {
  /** The model to call. */
  model: TillerModel;
  /** The agent's tools: their specs go with the request, except on the turn's final call (`effect.final`). */
  tools?: readonly Tool[] | undefined;
  /** The agent's system prompt. */
  systemPrompt?: string | undefined;
  /**
   * The agent's limits (the shell's defaults where left out): how often and how long to retry a
   * transient error, and the first-token and stream-idle time limits of each attempt.
   */
  limits?: Partial<AgentLimits> | undefined;
  /**
   * The turn's cancellation. Once it aborts, the call stops waiting on the model (even one that
   * ignores the signal) and answers `llm.failed` of kind `aborted`.
   */
  signal?: AbortSignal | undefined;
  /**
   * The context's size in tokens, when the engine keeps count (a token ledger over the session
   * path, plus the prompt). Above the model's `contextWindow` the call answers `llm.failed` of
   * kind `overflow` without calling the model, and the core compacts and tries again. Left out,
   * the model's own provider reports an overflow.
   */
  contextTokens?: number | undefined;
  /** Keeps what streams, as it streams, so the engine can hand the reply so far to an `abort`. */
  partial?: PartialReplySink | undefined;
  /**
   * The call's progress as the shell's subscribers get it (`llm.started`, deltas, `llm.retry`,
   * `llm.finished`). Sent from inside the engine's step: a step that replays from its journal
   * sends nothing again, one that runs again sends them again.
   */
  onEvent?: ((event: ModelCallEvent) => void) | undefined;
}

/** The input that answers a `call_llm` effect: the model's message, or why there is none. */
export type ModelCallAnswer = TurnEventOf<'llm.done'> | TurnEventOf<'llm.failed'>;

const ignore = () => {};
const noSink: PartialReplySink = { begin: ignore, add: ignore, end: ignore };

/**
 * The work of a `call_llm` effect, for a durable engine to run inside one step of its own (a
 * Restate `ctx.run`, a Temporal activity, an Inngest `step.run`): the shell's model call, with its
 * retries of transient errors, its time limits, and its classification of failures. Whatever
 * the model does, it answers: a failure is an `llm.failed` the core knows how to take (only bad
 * `limits` throw, `AgentOptionsError`). The answer is plain data, for the engine to journal;
 * the effect must be the one the core gave (its context is lent, not serialized).
 */
export async function runModelCall(effect: CallLlmEffect, options: ModelCallOptions): Promise<ModelCallAnswer> {
  const limits = resolveLimits(options.limits, 'runModelCall');
  const { contextTokens, onEvent } = options;
  const context: ModelCallContext = {
    model: options.model,
    toolSpecs: (options.tools ?? []).map((tool) => tool.spec),
    options: { systemPrompt: options.systemPrompt, limits },
    meter: { tokens: () => contextTokens ?? 0 },
    partial: options.partial ?? noSink,
    publish: onEvent ?? ignore,
  };
  try {
    return await callModel(effect, context, options.signal ?? new AbortController().signal);
  } catch (error) {
    return { type: 'llm.failed', id: effect.id, at: now(), error: { kind: 'fatal', message: describeThrown(error) } };
  }
}
