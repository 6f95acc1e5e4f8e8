import type { Usage } from '@tiller/core';

/**
 * What every loop in the per-call benchmarks shares: a model that answers at once, without a
 * network, and one tool that does nothing. Each prompt makes two model calls: the first asks for
 * the no-op tool, the second (seeing the tool's result last) answers with text. So a turn is two
 * model calls and one tool run in every loop, and adds four messages (the prompt, the tool call,
 * its result, the answer).
 */
export const CALLS_PER_TURN = 2;

export const NOOP_TOOL = 'noop';
export const SYSTEM_PROMPT = 'You are the benchmark agent.';
export const ANSWER = 'done';
/** Every model reports the same usage, as a provider would. */
export const USAGE: Usage = { input: 1000, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 1020 };

/** What the instant model answers: a call to the no-op tool, unless the last message is its result. */
export function wantsTool(lastRole: string | undefined): boolean {
  return lastRole !== 'toolResult';
}

/** One agent loop over its own copy of the conversation, as a benchmark drives it. */
export interface BenchLoop {
  /** One turn: the prompt, until the loop's answer. */
  prompt(text: string): Promise<unknown>;
  /** Releases what the loop holds (files, a database). */
  close?(): Promise<void>;
}
