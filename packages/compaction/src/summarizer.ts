import type { Usage } from '@tiller/core';

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
