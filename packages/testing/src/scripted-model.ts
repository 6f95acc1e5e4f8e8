import { setTimeout as sleep } from 'node:timers/promises';
import {
  ModelError,
  type AssistantContentPart,
  type AssistantMessage,
  type Message,
  type ModelErrorKind,
  type ModelRequest,
  type ModelStreamPart,
  type StopReason,
  type TillerModel,
  type Usage,
} from '@tiller/core';

/** A reply the scripted model streams. */
export interface ScriptedReply {
  thinking?: string;
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; args?: Record<string, unknown> }>;
  /** Default: counted at 4 characters a token from the request and the reply. */
  usage?: Partial<Usage>;
  /** Default `toolUse` when there are tool calls, else `stop`. */
  stopReason?: StopReason;
  /** Wait before the first part (`Infinity`: until the call is aborted). */
  delayMs?: number;
  /** Wait between parts, so a test can act mid-stream. */
  partDelayMs?: number;
  /** Characters per text or thinking delta. Default 8. */
  chunkSize?: number;
}

/** A failure the scripted model throws, after `delayMs`. */
export interface ScriptedFailure {
  error: ModelErrorKind;
  message?: string;
  retryAfterMs?: number;
  delayMs?: number;
}

export type ScriptedCall = ScriptedReply | ScriptedFailure;

/** One entry of a script: a call's answer, or a function of the request that gives it. */
export type ScriptStep = ScriptedCall | ((request: RecordedRequest, index: number) => ScriptedCall);

/** A request as the scripted model saw it (the signal left out). */
export interface RecordedRequest {
  messages: Message[];
  toolNames: string[];
  system: string | undefined;
  maxOutputTokens?: number | undefined;
}

export interface ScriptedModel extends TillerModel {
  /** Every request, in order, including ones that failed or were aborted. */
  readonly requests: readonly RecordedRequest[];
  /** Steps not used yet. */
  readonly remaining: number;
}

export interface ScriptedModelOptions {
  id?: string;
  contextWindow?: number;
}

/**
 * A deterministic model for tests and demos: call n plays step n of the script, streaming
 * thinking, text and tool-call deltas, then the message; or throws the scripted `ModelError`.
 * A call past the end of the script fails as fatal, naming the call.
 */
export function scriptedModel(script: readonly ScriptStep[], options: ScriptedModelOptions = {}): ScriptedModel {
  const requests: RecordedRequest[] = [];
  const id = options.id ?? 'scripted/model';
  return {
    id,
    contextWindow: options.contextWindow,
    requests,
    get remaining() {
      return Math.max(0, script.length - requests.length);
    },
    stream(request) {
      const index = requests.length;
      const recorded: RecordedRequest = {
        messages: structuredClone(request.messages) as Message[],
        toolNames: request.tools.map((t) => t.name),
        system: request.system,
        ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
      };
      requests.push(recorded);
      return play(script[index], recorded, index, request, id);
    },
  };
}

async function* play(
  entry: ScriptStep | undefined,
  recorded: RecordedRequest,
  index: number,
  request: ModelRequest,
  modelId: string,
): AsyncGenerator<ModelStreamPart> {
  if (entry === undefined) throw new ModelError('fatal', `the script has no step for model call ${index + 1}`);
  const call = typeof entry === 'function' ? entry(recorded, index) : entry;
  if (call.delayMs) await pauseFor(call.delayMs, request.signal);
  if ('error' in call) {
    throw new ModelError(call.error, call.message ?? `scripted ${call.error} error`, { retryAfterMs: call.retryAfterMs });
  }
  const pause = async () => {
    if (call.partDelayMs) await pauseFor(call.partDelayMs, request.signal);
    else if (request.signal.aborted) await pauseFor(0, request.signal);
  };
  const size = call.chunkSize ?? 8;
  const content: AssistantContentPart[] = [];
  if (call.thinking !== undefined) {
    for (const delta of chunks(call.thinking, size)) {
      await pause();
      yield { type: 'thinking-delta', delta };
    }
    content.push({ type: 'thinking', thinking: call.thinking });
  }
  if (call.text !== undefined) {
    for (const delta of chunks(call.text, size)) {
      await pause();
      yield { type: 'text-delta', delta };
    }
    content.push({ type: 'text', text: call.text });
  }
  for (const [i, toolCall] of (call.toolCalls ?? []).entries()) {
    const part = { type: 'toolCall' as const, id: toolCall.id ?? `call-${index + 1}-${i + 1}`, name: toolCall.name, args: toolCall.args ?? {} };
    await pause();
    yield { type: 'toolcall-delta', toolCallId: part.id, toolName: part.name, delta: JSON.stringify(part.args) };
    content.push(part);
  }
  await pause();
  const stopReason = call.stopReason ?? (call.toolCalls?.length ? 'toolUse' : 'stop');
  const usage = usageOf(call, recorded, content);
  const message: AssistantMessage = { role: 'assistant', content, usage, stopReason, model: modelId };
  yield { type: 'done', message, stopReason, usage };
}

function chunks(text: string, size: number): string[] {
  if (text.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function usageOf(call: ScriptedReply, request: RecordedRequest, content: AssistantContentPart[]): Usage {
  const input = call.usage?.input ?? Math.ceil((JSON.stringify(request.messages).length + (request.system?.length ?? 0)) / 4);
  const output = call.usage?.output ?? Math.ceil(JSON.stringify(content).length / 4);
  const cacheRead = call.usage?.cacheRead ?? 0;
  const cacheWrite = call.usage?.cacheWrite ?? 0;
  return { input, output, cacheRead, cacheWrite, totalTokens: call.usage?.totalTokens ?? input + output + cacheRead + cacheWrite };
}

/**
 * Waits like a slow provider: `ms`, or until the call is aborted for `Infinity`. An abort
 * rejects at once with the signal's reason, as a real stream would fail.
 */
async function pauseFor(ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  if (Number.isFinite(ms)) {
    await sleep(ms, undefined, { signal }).catch(() => signal.throwIfAborted());
    return;
  }
  await new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
}
