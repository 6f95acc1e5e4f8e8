import type { SummarizeRequest, SummarizeResult, Summarizer } from '../src/index.js';

export interface ScriptedSummarizer extends Summarizer {
  /** Every request, in the order received. */
  readonly requests: SummarizeRequest[];
  /** Requests received and not answered yet (only with `hold`). */
  readonly waiting: SummarizeRequest[];
  /** Answers every waiting request. */
  release(): void;
}

export interface ScriptOptions {
  /** The summary for a request; default: a structured summary naming the request's purpose and number. */
  reply?: (request: SummarizeRequest, index: number) => string | Promise<string>;
  /** Hold every answer until `release()`. */
  hold?: boolean;
  contextWindow?: number;
  model?: string;
  usagePerCall?: number;
}

/** A deterministic summarizer that records what it is asked. */
export function scriptedSummarizer(options: ScriptOptions = {}): ScriptedSummarizer {
  const requests: SummarizeRequest[] = [];
  const waiting: SummarizeRequest[] = [];
  const releases: Array<() => void> = [];
  const reply = options.reply ?? ((request, index) => `## Goal\nsummary ${index + 1} (${request.purpose})`);
  return {
    requests,
    waiting,
    contextWindow: options.contextWindow,
    model: options.model ?? 'scripted-summarizer',
    release() {
      waiting.length = 0;
      for (const release of releases.splice(0)) release();
    },
    async summarize(request): Promise<SummarizeResult> {
      const index = requests.length;
      requests.push(request);
      if (options.hold) {
        waiting.push(request);
        await new Promise<void>((resolve) => releases.push(resolve));
      }
      const text = await reply(request, index);
      const tokens = options.usagePerCall ?? 100;
      return {
        text,
        model: options.model ?? 'scripted-summarizer',
        usage: { input: tokens, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: tokens + 10 },
      };
    },
  };
}
