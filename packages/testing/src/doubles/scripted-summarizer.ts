import { z } from 'zod';
import { checkOptions, fn, nonnegativeInt, positiveInt } from '../check-options.js';
import type { Usage } from '@tiller/core';

/**
 * A summary request as `@tiller/compaction` sends it. Declared here by shape so that this package
 * need not depend on compaction; compaction's type tests check the two stay compatible.
 */
export interface ScriptedSummaryRequest {
  system: string;
  prompt: string;
  maxTokens: number;
  purpose: string;
  signal?: AbortSignal | undefined;
}

export interface ScriptedSummarizer {
  summarize(request: ScriptedSummaryRequest): Promise<{ text: string; usage: Usage; model: string }>;
  readonly contextWindow: number | undefined;
  readonly model: string;
  /** Every request, in the order received. */
  readonly requests: ScriptedSummaryRequest[];
  /** Requests received and not answered yet (only with `hold`). */
  readonly waiting: ScriptedSummaryRequest[];
  /** Answers every waiting request. */
  release(): void;
}

export interface ScriptedSummarizerOptions {
  /** The summary for a request; default `## Goal\nsummary <n> (<purpose>)`. May throw or reject. */
  reply?: (request: ScriptedSummaryRequest, index: number) => string | Promise<string>;
  /** Hold every answer until `release()`: lets a test see which requests are in flight together. */
  hold?: boolean;
  /** The summarizer's own window; longer input is then sent in chunks. */
  contextWindow?: number;
  model?: string;
  /** Input tokens each call reports (output: 10). Default 100. */
  usagePerCall?: number;
}

const ScriptedSummarizerOptions = z.strictObject({
  reply: fn('a function (request, index) => string').optional(),
  hold: z.boolean().optional(),
  contextWindow: positiveInt.optional(),
  model: z.string().min(1).optional(),
  usagePerCall: nonnegativeInt.optional(),
});

/** A deterministic summarizer for tests and demos that records what it is asked. */
export function scriptedSummarizer(options: ScriptedSummarizerOptions = {}): ScriptedSummarizer {
  checkOptions('scriptedSummarizer', ScriptedSummarizerOptions, options);
  const requests: ScriptedSummaryRequest[] = [];
  const waiting: ScriptedSummaryRequest[] = [];
  const releases: Array<() => void> = [];
  const model = options.model ?? 'scripted-summarizer';
  const reply = options.reply ?? ((request, index) => `## Goal\nsummary ${index + 1} (${request.purpose})`);
  return {
    requests,
    waiting,
    contextWindow: options.contextWindow,
    model,
    release() {
      waiting.length = 0;
      for (const release of releases.splice(0)) release();
    },
    async summarize(request) {
      const index = requests.length;
      requests.push(request);
      if (options.hold) {
        waiting.push(request);
        await new Promise<void>((resolve) => releases.push(resolve));
      }
      const text = await reply(request, index);
      const input = options.usagePerCall ?? 100;
      return { text, model, usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 } };
    },
  };
}
