import { z } from 'zod';
import { checkOptions } from '../check-options.js';
import { checkLanguageModelScript } from './language-model-step-check.js';
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3FinishReason,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
  type LanguageModelV3Usage,
} from '@ai-sdk/provider';

/** What one call of the scripted AI SDK model streams. */
export interface LanguageModelReply {
  reasoning?: string;
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; args?: Record<string, unknown> }>;
  /** Default `tool-calls` when there are tool calls, else `stop`. */
  finishReason?: LanguageModelV3FinishReason['unified'];
  usage?: { input: number; output: number; cacheRead?: number };
}

/**
 * A provider failure by name, raised the way AI SDK providers raise them (an `APICallError` with
 * the status and headers a real endpoint sends), so a host's classification is what is tested:
 * - `rate_limited`: 429 with `Retry-After: 0`;
 * - `server_error`: 503;
 * - `overflow`: 400 with a context-length error body;
 * - `fatal`: 401;
 * - `cut_stream`: the stream starts, then fails with a connection reset.
 */
export type LanguageModelFault = 'rate_limited' | 'server_error' | 'overflow' | 'fatal' | 'cut_stream';

export type LanguageModelStep = LanguageModelReply | LanguageModelFault;

/** One call as the scripted model received it: sizes and names, not the prompt itself (that would keep every history). */
export interface LanguageModelCall {
  messageCount: number;
  toolNames: string[];
  /** The role of each prompt message, in order: enough to see the shape of what was sent. */
  roles: string[];
}

export interface ScriptedLanguageModel extends LanguageModelV3 {
  readonly calls: readonly LanguageModelCall[];
  /** The prompt of the latest call, in the provider's shape. */
  readonly lastPrompt: LanguageModelV3Prompt | undefined;
}

/**
 * An AI SDK `LanguageModel` (provider spec v3) that plays a script: call n streams step n as the
 * provider parts a real model sends (text and reasoning blocks, tool-input deltas, the tool call,
 * the finish with usage) or fails as a provider fails. With it a host tests its
 * `fromLanguageModel(...)` wiring without a network. A call past the end of the script fails,
 * naming the call. The script is checked here, step by step, naming a bad one.
 */
export function scriptedLanguageModel(script: readonly LanguageModelStep[], options: { modelId?: string } = {}): ScriptedLanguageModel {
  checkOptions('scriptedLanguageModel', z.strictObject({ modelId: z.string().min(1).optional() }), options);
  checkLanguageModelScript(script);
  const calls: LanguageModelCall[] = [];
  let lastPrompt: LanguageModelV3Prompt | undefined;
  const modelId = options.modelId ?? 'scripted-language-model';
  const record = (call: LanguageModelV3CallOptions) => {
    lastPrompt = call.prompt;
    calls.push({
      messageCount: call.prompt.length,
      toolNames: (call.tools ?? []).map((t) => t.name),
      roles: call.prompt.map((m) => m.role),
    });
    return calls.length - 1;
  };
  return {
    specificationVersion: 'v3',
    provider: 'tiller-scripted',
    modelId,
    supportedUrls: {},
    calls,
    get lastPrompt() {
      return lastPrompt;
    },
    async doGenerate() {
      throw new APICallError({ message: 'the scripted language model only streams', url: 'scripted://', requestBodyValues: {}, statusCode: 400, isRetryable: false });
    },
    async doStream(call) {
      const index = record(call);
      const step = script[index];
      if (step === undefined) {
        throw new APICallError({ message: `the script has no step for call ${index + 1}`, url: 'scripted://', requestBodyValues: {}, statusCode: 400, isRetryable: false });
      }
      if (typeof step === 'string' && step !== 'cut_stream') throw faultError(step);
      const parts = typeof step === 'string' ? cutParts() : replyParts(step, index);
      return { stream: streamOf(parts, call.abortSignal) };
    },
  };
}

function faultError(fault: Exclude<LanguageModelFault, 'cut_stream'>): APICallError {
  const base = { url: 'scripted://chat/completions', requestBodyValues: {} };
  switch (fault) {
    case 'rate_limited':
      return new APICallError({ ...base, message: 'Rate limit reached', statusCode: 429, responseHeaders: { 'retry-after': '0' }, isRetryable: true });
    case 'server_error':
      return new APICallError({ ...base, message: 'Service unavailable', statusCode: 503, isRetryable: true });
    case 'overflow':
      return new APICallError({
        ...base,
        message: "This model's maximum context length is 8192 tokens.",
        statusCode: 400,
        responseBody: JSON.stringify({ error: { code: 'context_length_exceeded', message: "This model's maximum context length is 8192 tokens." } }),
        isRetryable: false,
      });
    case 'fatal':
      return new APICallError({ ...base, message: 'Incorrect API key provided', statusCode: 401, isRetryable: false });
    default: {
      const unknown: never = fault;
      throw new TypeError(`unknown language model fault ${JSON.stringify(unknown)}`);
    }
  }
}

function usageOf(usage: LanguageModelReply['usage']): LanguageModelV3Usage {
  const input = usage?.input ?? 10;
  const cacheRead = usage?.cacheRead ?? 0;
  const output = usage?.output ?? 5;
  return {
    inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function replyParts(reply: LanguageModelReply, index: number): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (reply.reasoning !== undefined) {
    parts.push({ type: 'reasoning-start', id: 'r' }, ...pieces(reply.reasoning).map((delta) => ({ type: 'reasoning-delta' as const, id: 'r', delta })), {
      type: 'reasoning-end',
      id: 'r',
    });
  }
  if (reply.text !== undefined) {
    parts.push({ type: 'text-start', id: 't' }, ...pieces(reply.text).map((delta) => ({ type: 'text-delta' as const, id: 't', delta })), { type: 'text-end', id: 't' });
  }
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const id = call.id ?? `call-${index + 1}-${i + 1}`;
    const input = JSON.stringify(call.args ?? {});
    parts.push(
      { type: 'tool-input-start', id, toolName: call.name },
      ...pieces(input).map((delta) => ({ type: 'tool-input-delta' as const, id, delta })),
      { type: 'tool-input-end', id },
      { type: 'tool-call', toolCallId: id, toolName: call.name, input },
    );
  }
  const unified = reply.finishReason ?? (reply.toolCalls?.length ? 'tool-calls' : 'stop');
  parts.push({ type: 'finish', finishReason: { unified, raw: unified }, usage: usageOf(reply.usage) });
  return parts;
}

function cutParts(): LanguageModelV3StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    { type: 'text-delta', id: 't', delta: 'partial ans' },
    { type: 'error', error: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) },
  ];
}

function pieces(text: string, size = 6): string[] {
  if (text.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The parts as a stream a consumer pulls; an abort ends it with the signal's reason, as a real fetch would. */
function streamOf(parts: LanguageModelV3StreamPart[], signal: AbortSignal | undefined): ReadableStream<LanguageModelV3StreamPart> {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (signal?.aborted) {
        controller.error(signal.reason);
        return;
      }
      const part = parts[next++];
      if (part) controller.enqueue(part);
      else controller.close();
    },
  });
}
