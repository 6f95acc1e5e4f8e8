import type { Message, Usage } from '@tiller/core';
import { CompactionError } from './errors/index.js';
import { estimateTextTokens } from './estimate-tokens.js';
import type { PromptParts } from './prompts.js';
import { serializeMessage } from './serialize-conversation.js';
import { addUsage, type SummarizeRequest, type SummaryPurpose, type Summarizer } from './summarizer.js';
import { abortable } from './abortable.js';
import { describeValue } from './describe-value.js';
import { readSummarizerUsage } from './summarizer-usage.js';
import type { TokenCounter } from './token-counter.js';

/** Room left for estimate error when filling the summarizer's window. */
const WINDOW_MARGIN = 256;
/** Below this much room for transcript, chunking would make no progress worth the calls. */
const MIN_CHUNK_TOKENS = 256;

export interface BoundedSummary {
  text: string;
  usage: Usage | undefined;
  model: string | undefined;
  calls: number;
  /** What the summarizer reported that could not be recorded (a usage that is no count of tokens). */
  warnings: string[];
}

export interface SummaryPlan {
  first: { purpose: SummaryPurpose; prompt: (parts: PromptParts) => string };
  update: { purpose: SummaryPurpose; prompt: (parts: PromptParts) => string };
  system: string;
  maxTokens: number;
  previousSummary?: string | undefined;
  customInstructions?: string | undefined;
  signal?: AbortSignal | undefined;
  counter?: TokenCounter | undefined;
}

/**
 * Summarizes `messages`, never sending the summarizer more than its window holds. The transcript
 * goes in chunks that fit beside the instructions, the summary so far and the reply; each chunk
 * after the first updates the summary so far. A single message too long for any chunk is split.
 * Undefined when the messages hold no text to send (none, or only empty ones): the summarizer is
 * not asked, and the summary so far stands.
 */
export async function summarizeBounded(messages: readonly Message[], summarizer: Summarizer, plan: SummaryPlan): Promise<BoundedSummary | undefined> {
  const pending: string[] = [];
  for (const message of messages) {
    const block = serializeMessage(message);
    if (block) pending.push(block);
  }
  if (pending.length === 0) return undefined;
  pending.reverse(); // taken from the end: the oldest block is last

  const window = summarizer.contextWindow ?? Number.POSITIVE_INFINITY;
  const tokens = (text: string) => estimateTextTokens(text, plan.counter);
  const systemTokens = tokens(plan.system);
  let summary = plan.previousSummary;
  let usage: Usage | undefined;
  let model: string | undefined;
  let calls = 0;
  const warnings: string[] = [];

  do {
    const step = summary === undefined ? plan.first : plan.update;
    const parts = { previousSummary: summary, customInstructions: plan.customInstructions };
    const overhead = systemTokens + tokens(step.prompt({ ...parts, transcript: '' })) + plan.maxTokens + WINDOW_MARGIN;
    const budget = window - overhead;
    // Written so that a NaN budget (a counter that answers NaN) fails too.
    if (!(budget >= MIN_CHUNK_TOKENS)) {
      throw new CompactionError(
        'summarization_failed',
        `the summarizer's window of ${window} tokens leaves ${Math.max(0, budget)} for the conversation after ${overhead} tokens of instructions, summary so far and reply; at least ${MIN_CHUNK_TOKENS} are needed`,
      );
    }
    const left = { blocks: pending.length, lastLength: pending.at(-1)?.length ?? 0 };
    const transcript = takeChunk(pending, budget, tokens);
    // Each request must take a block, or a piece of one longer than the "(continued)" mark its rest
    // gets: otherwise the same text would be sent again and again.
    if (pending.length === left.blocks && (pending.at(-1)?.length ?? 0) >= left.lastLength) {
      throw new CompactionError(
        'summarization_failed',
        `chunking the conversation for the summarizer made no progress: with ${budget} tokens for the conversation per request, not even a piece of the next message fits by the token counter; stopped after ${calls} calls`,
      );
    }
    const result = await ask(summarizer, {
      system: plan.system,
      prompt: step.prompt({ ...parts, transcript }),
      maxTokens: plan.maxTokens,
      purpose: step.purpose,
      signal: plan.signal,
    });
    summary = result.text;
    usage = addUsage(usage, result.usage);
    model = result.model ?? model;
    calls += 1;
    warnings.push(...result.warnings);
  } while (pending.length > 0);

  return { text: summary, usage, model: model ?? summarizer.model, calls, warnings };
}

/** Takes blocks off `pending` (oldest last) while they fit `budget`; splits one that fits nowhere. */
function takeChunk(pending: string[], budget: number, tokens: (text: string) => number): string {
  const taken: string[] = [];
  let used = 0;
  while (pending.length > 0) {
    const block = pending[pending.length - 1]!;
    const cost = tokens(block) + 1;
    if (used + cost <= budget) {
      taken.push(block);
      used += cost;
      pending.pop();
      continue;
    }
    if (taken.length === 0) {
      const [head, tail] = splitToFit(block, budget - 1, tokens);
      taken.push(head);
      pending[pending.length - 1] = `(continued) ${tail}`;
    }
    break;
  }
  return taken.join('\n\n');
}

function splitToFit(block: string, budget: number, tokens: (text: string) => number): [string, string] {
  let length = Math.max(1, Math.floor((block.length * budget) / Math.max(1, tokens(block))));
  while (length > 1 && tokens(block.slice(0, length)) > budget) length = Math.floor(length * 0.9);
  return [block.slice(0, length), block.slice(length)];
}

export interface Answer {
  text: string;
  usage: Usage | undefined;
  model: string | undefined;
  /** What the answer held that cannot be recorded, and was left out. */
  warnings: string[];
}

/**
 * One request; any failure becomes a `CompactionError` saying whether it was an abort. The usage
 * and model it reports are taken only in the shape a compaction entry records them.
 */
export async function ask(summarizer: Summarizer, request: SummarizeRequest): Promise<Answer> {
  const { signal } = request;
  if (signal?.aborted) throw abortError(signal);
  let result;
  try {
    result = await abortable(() => summarizer.summarize(request), signal);
  } catch (cause) {
    if (signal?.aborted) throw abortError(signal);
    throw new CompactionError('summarization_failed', `the summarizer failed (${request.purpose}): ${describe(cause)}`, { cause });
  }
  if (signal?.aborted) throw abortError(signal);
  const unfit = answerProblem(result);
  if (unfit) throw new CompactionError('summarization_failed', `the summarizer returned ${unfit} (${request.purpose})`);
  const warnings: string[] = [];
  const { usage, problem } = readSummarizerUsage(result.usage);
  if (problem) warnings.push(`the summarizer's usage (${request.purpose}) was left out: ${problem}`);
  let model: string | undefined;
  if (typeof result.model === 'string' && result.model !== '') model = result.model;
  else if (result.model !== undefined) warnings.push(`the summarizer's model (${request.purpose}) was left out: it is ${describeValue(result.model)}, not a model id`);
  return { text: result.text, usage, model, warnings };
}

/** What is wrong with an answer, as "the summarizer returned …" goes on; null for a summary. */
function answerProblem(result: unknown): string | null {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return `${describeValue(result)} instead of {text}`;
  const { text } = result as { text?: unknown };
  if (typeof text !== 'string') return `{text: ${describeValue(text)}}, not text`;
  return text.trim() === '' ? 'an empty summary' : null;
}

function abortError(signal: AbortSignal): CompactionError {
  return new CompactionError('aborted', `compaction aborted: ${describe(signal.reason)}`, { cause: signal.reason });
}

function describe(value: unknown): string {
  return value instanceof Error ? value.message : String(value);
}
