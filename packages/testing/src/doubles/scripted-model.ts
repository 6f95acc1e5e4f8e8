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
import { z } from 'zod';
import { checkOptions, positiveInt } from '../check-options.js';
import { invalidStep, stepProblem } from './script-step-check.js';

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

/** A failure by name, as a provider gives it. */
export type ModelFault =
  /** A passing failure (a 503): the shell retries it. */
  | 'transient'
  /** A 429 with Retry-After: transient, with the wait the provider asked for (1 ms). */
  | 'rate_limited'
  /** The request is larger than the model's window. */
  | 'overflow'
  /** A failure no retry fixes (a bad key, a bad request). */
  | 'fatal'
  /** The stream starts, then the connection drops (transient). */
  | 'cut_stream'
  /** Nothing comes until the call is aborted. */
  | 'hang';

export const MODEL_FAULTS: readonly ModelFault[] = ['transient', 'rate_limited', 'overflow', 'fatal', 'cut_stream', 'hang'];

export type ScriptedCall = ScriptedReply | ScriptedFailure | ModelFault;

/** One entry of a script: a call's answer, a fault by name, or a function of the request that gives one. */
export type ScriptStep = ScriptedCall | ((request: RecordedRequest, index: number) => ScriptedCall);

/** A request as the scripted model saw it (the signal left out). */
export interface RecordedRequest {
  /** The messages sent. They are the agent's own (immutable) messages, not copies. */
  readonly messages: Message[];
  readonly toolNames: string[];
  readonly system: string | undefined;
  readonly maxOutputTokens?: number | undefined;
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

const ScriptedModelOptions = z.strictObject({ id: z.string().min(1).optional(), contextWindow: positiveInt.optional() });

/**
 * A deterministic model for tests and demos: call n plays step n of the script, streaming
 * thinking, text and tool-call deltas, then the message; or throws the scripted `ModelError`.
 * A call past the end of the script fails as fatal, naming the call. A call whose signal is
 * aborted rejects with the abort, whatever its step. The script is checked here, step by step,
 * so a bad step fails the line that wrote it instead of a model call later.
 */
export function scriptedModel(script: readonly ScriptStep[], options: ScriptedModelOptions = {}): ScriptedModel {
  checkOptions('scriptedModel', ScriptedModelOptions, options);
  checkScript(script);
  const requests: RecordedRequest[] = [];
  const messages = sharedMessages();
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
      const sent = messages.record(request.messages);
      const recorded: RecordedRequest = {
        get messages() {
          return sent();
        },
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
  // A provider called with an aborted signal fails with the abort before it answers anything.
  request.signal.throwIfAborted();
  if (entry === undefined) throw new ModelError('fatal', `the script has no step for model call ${index + 1}`);
  const given = typeof entry === 'function' ? playFunction(entry, recorded, index) : entry;
  if (typeof entry === 'function') {
    const problem = stepProblem(given, MODEL_FAULTS, true);
    if (problem) throw invalidStep(index, problem, ' (what its function returned)');
  }
  if (typeof given === 'string') {
    yield* playFault(given, request);
    return;
  }
  const call: ScriptedReply | ScriptedFailure = given;
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

/**
 * A function step that throws is a bug in the test, not a provider failing: said as the script's,
 * naming the step, or the turn reports a bare TypeError as the model's. A `ModelError` it throws is
 * played as the failure it is.
 */
function playFunction(entry: (request: RecordedRequest, index: number) => ScriptedCall, recorded: RecordedRequest, index: number): ScriptedCall {
  try {
    return entry(recorded, index);
  } catch (error) {
    // A ModelError is a failure the step meant to play, as a provider throws one; known by its
    // marker, since the test's own copy of @tiller/core may not be this one.
    if (ModelError.isInstance(error)) throw error;
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new TypeError(`scriptedModel: script[${index}] (a function of the request) threw: ${what}`, { cause: error });
  }
}

function checkScript(script: unknown): void {
  if (!Array.isArray(script)) throw new TypeError(`scriptedModel: the script is a list of steps, got ${script === null ? 'null' : typeof script}`);
  for (const [index, step] of script.entries()) {
    const problem = stepProblem(step, MODEL_FAULTS);
    if (problem) throw invalidStep(index, problem);
  }
}

async function* playFault(fault: ModelFault, request: ModelRequest): AsyncGenerator<ModelStreamPart> {
  switch (fault) {
    case 'transient':
      throw new ModelError('transient', 'scripted transient error: the provider is busy (503)');
    case 'rate_limited':
      throw new ModelError('transient', 'scripted rate limit (429)', { retryAfterMs: 1 });
    case 'overflow':
      throw new ModelError('overflow', 'scripted overflow: the request is larger than the context window');
    case 'fatal':
      throw new ModelError('fatal', 'scripted fatal error: the request was refused (400)');
    case 'cut_stream':
      yield { type: 'text-delta', delta: 'partial ans' };
      throw new ModelError('transient', 'scripted cut stream: the connection was reset mid-stream');
    case 'hang':
      await pauseFor(Infinity, request.signal);
      return;
    default: {
      const unknown: never = fault;
      throw new TypeError(`unknown model fault ${JSON.stringify(unknown)}; the faults are ${MODEL_FAULTS.join(', ')}`);
    }
  }
}

/**
 * Keeps the messages of every request without a copy per request: consecutive requests of a turn
 * extend one another, so a request whose messages start with every message of the shared array
 * (the same objects, in order) shares that growing array with the requests before it. Any other
 * request (after a compaction, or with one message replaced in the middle, as clearing a tool
 * result or stripping thinking does) starts a new array, so no recording ever shows a message
 * that was not sent. Every message of the common part is compared, not only its ends: that is
 * what makes sharing right, and it costs a pass over messages the request already holds, while
 * memory grows with the messages sent, not with calls times history.
 */
function sharedMessages() {
  let shared: Message[] = [];
  return {
    record(messages: readonly Message[]): () => Message[] {
      const n = messages.length;
      const common = Math.min(n, shared.length);
      let same = 0;
      while (same < common && messages[same] === shared[same]) same += 1;
      // A shorter request that matches is a prefix of the array; a longer one extends it.
      if (same < common) shared = [];
      for (let i = shared.length; i < n; i++) shared.push(messages[i]!);
      const mine = shared;
      return () => mine.slice(0, n);
    },
  };
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
