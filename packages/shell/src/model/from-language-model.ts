import type { AssistantContentPart, StopReason, Usage } from '@tiller/core';
import { jsonSchema, type LanguageModel, type LanguageModelUsage, streamText, type ToolSet, tool } from 'ai';
import { ModelError, type ModelStreamPart, type TillerModel, type ToolSpec } from '@tiller/core';
import { z } from 'zod';
import { AgentOptionsError } from '../errors/agent-options-error.js';
import { classifyModelError } from './classify-model-error.js';
import { toModelMessages } from './to-model-messages.js';

export interface FromLanguageModelOptions {
  /** Tokens the model accepts; requests estimated above it fail as overflow without a call. */
  contextWindow?: number | undefined;
  /** The id recorded on messages; default `provider/modelId`. */
  id?: string | undefined;
  /** Passed to `streamText` (temperature, max output tokens, provider options). */
  callSettings?: Omit<Parameters<typeof streamText>[0], 'model' | 'messages' | 'prompt' | 'system' | 'tools' | 'abortSignal' | 'maxRetries'> | undefined;
}

const Options = z.strictObject({
  contextWindow: z.number().int().positive().optional(),
  id: z.string().min(1, 'expected a model id').optional(),
  callSettings: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Any AI SDK 6 language model as a Tiller model, through `streamText`. Tools are declared without
 * `execute`, so the SDK reports the calls and the shell runs them. Retries are the shell's: the
 * SDK's own are off, and its errors are classified for the shell (transient, overflow, fatal).
 */
export function fromLanguageModel(model: LanguageModel, options: FromLanguageModelOptions = {}): TillerModel {
  if (typeof model !== 'string' && (typeof model !== 'object' || model === null || typeof (model as { modelId?: unknown }).modelId !== 'string')) {
    throw new AgentOptionsError('fromLanguageModel: expected an AI SDK language model (such as provider.chatModel(id)) or a model id');
  }
  const checked = Options.safeParse(options);
  if (!checked.success) throw new AgentOptionsError(`fromLanguageModel: invalid options:\n${z.prettifyError(checked.error)}`);
  const id = options.id ?? (typeof model === 'string' ? model : `${model.provider}/${model.modelId}`);
  return {
    id,
    contextWindow: options.contextWindow,
    async *stream(request): AsyncGenerator<ModelStreamPart> {
      const result = streamText({
        ...options.callSettings,
        model,
        system: request.system,
        messages: toModelMessages(request.messages),
        ...(request.tools.length > 0 ? { tools: toToolSet(request.tools) } : {}),
        ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
        abortSignal: request.signal,
        maxRetries: 0,
        // Errors arrive as stream parts and are classified below; the SDK's default logging is noise.
        onError: () => {},
      });
      const content: AssistantContentPart[] = [];
      const thinking = new Map<string, ThinkingBlock>();
      const toolNames = new Map<string, string>();
      let finishReason: string | undefined;
      let rawFinishReason: string | undefined;
      let usage: LanguageModelUsage | undefined;
      for await (const part of classified(result.fullStream, request.signal)) {
        switch (part.type) {
          case 'text-delta':
            appendText(content, part.text);
            yield { type: 'text-delta', delta: part.text };
            break;
          case 'reasoning-start': {
            // A block the provider withheld (Anthropic's redacted thinking) is nothing but its
            // encrypted data, which must go back as it came: kept as the signature, as pi keeps it.
            const redacted = redactedDataOf(part.providerMetadata);
            thinking.set(part.id, redacted === undefined ? { type: 'thinking', thinking: '' } : { type: 'thinking', thinking: '', signature: redacted, redacted: true });
            break;
          }
          case 'reasoning-delta': {
            const block = thinking.get(part.id) ?? thinking.set(part.id, { type: 'thinking', thinking: '' }).get(part.id)!;
            block.thinking += part.text;
            const signature = signatureOf(part.providerMetadata);
            if (signature) block.signature = signature;
            yield { type: 'thinking-delta', delta: part.text };
            break;
          }
          case 'reasoning-end': {
            const block = thinking.get(part.id);
            const signature = signatureOf(part.providerMetadata);
            if (block) content.push(signature ? { ...block, signature } : block);
            thinking.delete(part.id);
            break;
          }
          case 'tool-input-start':
            toolNames.set(part.id, part.toolName);
            break;
          case 'tool-input-delta':
            yield { type: 'toolcall-delta', toolCallId: part.id, toolName: toolNames.get(part.id) ?? '', delta: part.delta };
            break;
          case 'tool-call':
            content.push(toolCallPart(part.toolCallId, part.toolName, part.input));
            break;
          case 'finish-step':
            finishReason = part.finishReason;
            rawFinishReason = part.rawFinishReason;
            usage = part.usage;
            break;
          case 'finish':
            finishReason ??= part.finishReason;
            usage ??= part.totalUsage;
            break;
          case 'error':
            throw classifyModelError(part.error);
          case 'abort':
            throw abortError(request.signal);
          default:
            break;
        }
      }
      if (request.signal.aborted) throw abortError(request.signal);
      // The provider never said why it stopped (Anthropic's stream closed before its message_delta):
      // the message broke off, a tool call's arguments perhaps half sent. Taken as a whole answer, a
      // cut reply would end the turn; the next attempt usually gets a whole one.
      if (finishReason === 'other' && rawFinishReason === undefined) {
        throw new ModelError('transient', `the stream of ${id} ended before the provider said why it stopped: the reply broke off`);
      }
      // Reasoning the provider never closed still belongs to the message.
      for (const block of thinking.values()) content.push(block);
      const stopReason = toStopReason(finishReason, content);
      const mapped = toUsage(usage);
      yield {
        type: 'done',
        message: { role: 'assistant', content, model: id, stopReason, ...(mapped ? { usage: mapped } : {}) },
        stopReason,
        usage: mapped,
      };
    },
  };
}

function toToolSet(specs: readonly ToolSpec[]): ToolSet {
  return Object.fromEntries(specs.map((spec) => [spec.name, tool({ description: spec.description, inputSchema: jsonSchema(spec.inputSchema) })]));
}

function appendText(content: AssistantContentPart[], text: string): void {
  const last = content.at(-1);
  if (last?.type === 'text') last.text += text;
  else content.push({ type: 'text', text });
}

/**
 * The SDK hands on input it could not parse as the model's raw text. A call whose input is not a
 * JSON object keeps that text beside empty arguments, so the shell can tell the model what was wrong.
 */
function toolCallPart(id: string, name: string, input: unknown): AssistantContentPart {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return { type: 'toolCall', id, name, args: input as Record<string, unknown> };
  return { type: 'toolCall', id, name, args: {}, unparsedArgs: typeof input === 'string' ? input : JSON.stringify(input) ?? String(input) };
}

type ThinkingBlock = Extract<AssistantContentPart, { type: 'thinking' }>;

function signatureOf(metadata: unknown): string | undefined {
  const signature = (metadata as { anthropic?: { signature?: unknown } } | undefined)?.anthropic?.signature;
  return typeof signature === 'string' ? signature : undefined;
}

function redactedDataOf(metadata: unknown): string | undefined {
  const data = (metadata as { anthropic?: { redactedData?: unknown } } | undefined)?.anthropic?.redactedData;
  return typeof data === 'string' ? data : undefined;
}

function toStopReason(finishReason: string | undefined, content: AssistantContentPart[]): StopReason {
  switch (finishReason) {
    case 'tool-calls':
      return 'toolUse';
    case 'length':
      return 'length';
    case 'error':
      return 'error';
    case 'stop':
    case 'content-filter':
    case 'other':
    case undefined:
    default:
      // Some servers say `stop` after tool calls; the calls decide.
      return content.some((p) => p.type === 'toolCall') ? 'toolUse' : 'stop';
  }
}

/** The SDK counts cached input inside `inputTokens`; Tiller (like pi) counts it apart. */
function toUsage(usage: LanguageModelUsage | undefined): Usage | undefined {
  if (!usage || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  const cacheRead = tokenCount(usage.inputTokenDetails?.cacheReadTokens);
  const cacheWrite = tokenCount(usage.inputTokenDetails?.cacheWriteTokens);
  const noCache = usage.inputTokenDetails?.noCacheTokens;
  const input = noCache === undefined ? Math.max(0, tokenCount(usage.inputTokens) - cacheRead - cacheWrite) : tokenCount(noCache);
  const output = tokenCount(usage.outputTokens);
  const total = usage.totalTokens;
  return { input, output, cacheRead, cacheWrite, totalTokens: total === undefined ? input + output + cacheRead + cacheWrite : tokenCount(total) };
}

/**
 * A count as Tiller keeps it, a whole number of 0 or more. Proxies in front of a model report
 * estimates (12.6) or differences below zero; the reply is worth more than the exact count, and a
 * message with such a count could not be kept at all.
 */
function tokenCount(n: number | undefined): number {
  return n !== undefined && Number.isFinite(n) ? Math.max(0, Math.round(n)) : 0;
}

/**
 * The SDK's stream, whose read errors (a connection reset mid-stream surfaces as a thrown
 * `TypeError: terminated`, not as an error part) are classified like every other model error.
 */
async function* classified<T>(stream: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  try {
    yield* stream;
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    throw classifyModelError(error);
  }
}

function abortError(signal: AbortSignal): Error {
  const error = new Error(typeof signal.reason === 'string' ? signal.reason : 'aborted');
  error.name = 'AbortError';
  return error;
}
