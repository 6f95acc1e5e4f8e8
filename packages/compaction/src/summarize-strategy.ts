import { compact } from './compact.js';
import type { Strategy } from './compaction-strategy.js';
import { prepareCompaction } from './prepare-compaction.js';

/** pi's algorithm: summarize what leaves, keep about `keepRecentTokens` verbatim. */
export const summarize: Strategy = async (path, ctx, config) => {
  const settings = { enabled: true, reserveTokens: config.reserveTokens, keepRecentTokens: config.keepRecentTokens };
  const preparation = prepareCompaction(path, settings, {
    counter: config.counter,
    fileTools: config.fileTools,
    stripThinking: ctx.midRound,
    promptTokens: ctx.promptTokens,
  });
  if (!preparation) return null;
  const result = await compact(preparation, config.summarizer!, {
    signal: ctx.signal,
    customInstructions: config.customInstructions,
    counter: config.counter,
  });
  return {
    summary: result.summary,
    firstKeptIndex: preparation.firstKeptIndex,
    stripThinking: result.stripThinking,
    dropped: [...preparation.compactedEntries],
    cleared: result.cleared,
    details: result.details,
    usage: result.usage,
    summarizerModel: result.summarizerModel,
    warnings: result.warnings,
  };
};
