import type { Usage } from '@tiller/core';
import { describeValue } from './describe-value.js';

/** What a summary request is for, so that logs and test doubles can tell requests apart. */
export type SummaryPurpose = 'history' | 'history-update' | 'turn-prefix' | 'turn-prefix-update';

export interface SummarizeRequest {
  system: string;
  /** One user message: the transcript and the instructions. */
  prompt: string;
  /** Upper bound for the summary's length. */
  maxTokens: number;
  purpose: SummaryPurpose;
  signal?: AbortSignal | undefined;
}

export interface SummarizeResult {
  text: string;
  usage?: Usage | undefined;
  /** The model that wrote the summary, for provenance. */
  model?: string | undefined;
}

/**
 * Anything that turns a prompt into text: a scripted model in tests, an AI SDK model in the shell, a
 * local model. `contextWindow` is the summarizer's own window: a conversation longer than it is
 * summarized in chunks, each one updating the summary so far.
 */
export interface Summarizer {
  summarize(request: SummarizeRequest): Promise<SummarizeResult>;
  readonly contextWindow?: number | undefined;
  readonly model?: string | undefined;
}

/**
 * What is wrong with a summarizer's own settings, or null. A window that is not a positive whole
 * number would give every chunk a budget of NaN (or none), and chunking would never end.
 */
export function summarizerSettingsProblem(summarizer: Summarizer): { option: 'contextWindow' | 'model'; detail: string } | null {
  const { contextWindow, model } = summarizer;
  if (contextWindow !== undefined && !(typeof contextWindow === 'number' && Number.isInteger(contextWindow) && contextWindow > 0)) {
    return { option: 'contextWindow', detail: `must be a positive whole number of tokens (leave it out for no limit), not ${describeValue(contextWindow)}` };
  }
  if (model !== undefined && (typeof model !== 'string' || model === '')) {
    return { option: 'model', detail: `must be a model id (a non-empty string), not ${describeValue(model)}` };
  }
  return null;
}

/** Sum of usages, cost included when every part reported one. */
export function addUsage(total: Usage | undefined, more: Usage | undefined): Usage | undefined {
  if (!more) return total;
  if (!total) return more;
  const sum: Usage = {
    input: total.input + more.input,
    output: total.output + more.output,
    cacheRead: total.cacheRead + more.cacheRead,
    cacheWrite: total.cacheWrite + more.cacheWrite,
    totalTokens: total.totalTokens + more.totalTokens,
  };
  if (total.cost && more.cost) {
    sum.cost = {
      input: total.cost.input + more.cost.input,
      output: total.cost.output + more.cost.output,
      cacheRead: total.cost.cacheRead + more.cost.cacheRead,
      cacheWrite: total.cost.cacheWrite + more.cost.cacheWrite,
      total: total.cost.total + more.cost.total,
    };
  }
  return sum;
}
