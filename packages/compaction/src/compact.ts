import type { CompactionEntry, FileLists, Message, Usage } from '@tiller/core';
import { compactionSummaryMessage } from '@tiller/core';
import { CompactionConfigError } from './errors/index.js';
import { estimateTokens } from './estimate-tokens.js';
import { formatFileLists } from './file-operations.js';
import type { CompactionPreparation } from './prepare-compaction.js';
import {
  historyPrompt,
  joinSplitTurn,
  SUMMARIZER_SYSTEM_PROMPT,
  turnPrefixPrompt,
  turnPrefixUpdatePrompt,
  updatePrompt,
} from './prompts.js';
import { type SummaryPlan, summarizeBounded } from './summarize-bounded.js';
import { addUsage, type Summarizer, summarizerSettingsProblem } from './summarizer.js';
import type { TokenCounter } from './token-counter.js';

export interface CompactOptions {
  /** Extra focus for the summary ("keep the API decisions"). */
  customInstructions?: string | undefined;
  signal?: AbortSignal | undefined;
  counter?: TokenCounter | undefined;
}

/** A compaction ready to be appended: the compaction entry's fields and what it cost. */
export interface CompactionResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  tokensAfter: number;
  /** `tokensBefore - tokensAfter`. */
  tokensSaved: number;
  /** The entries that left the context, oldest first. */
  compactedEntryIds: string[];
  isSplitTurn: boolean;
  details: FileLists;
  cleared: CompactionEntry['cleared'];
  stripThinking: boolean;
  /** What the summarizer calls cost, summed. */
  usage: Usage | undefined;
  summarizerModel: string | undefined;
  summarizerCalls: number;
  /** What the summarizer reported that could not be recorded and was left out (a usage that is no count of tokens). */
  warnings: string[];
}

/** Share of the reserve a history summary may fill; a turn prefix gets less (pi's proportions). */
const HISTORY_SHARE = 0.8;
const TURN_PREFIX_SHARE = 0.5;
const MIN_SUMMARY_TOKENS = 512;

const summaryBudget = (reserveTokens: number, share: number) => Math.max(MIN_SUMMARY_TOKENS, Math.floor(reserveTokens * share));

/**
 * Summarizes what a preparation says leaves the context. With a previous summary the summarizer
 * updates it; for a split turn the history and the turn's opening part are summarized at the same
 * time and joined. With no history to summarize (none, or only messages with no text), the
 * previous summary is kept as it was (pi asks for a summary of nothing). The file lists close the
 * summary. Throws `CompactionError` (`aborted` or `summarization_failed`), or
 * `CompactionConfigError` for a summarizer whose `contextWindow` or `model` is not what it says;
 * nothing is written either way.
 */
export async function compact(preparation: CompactionPreparation, summarizer: Summarizer, options: CompactOptions = {}): Promise<CompactionResult> {
  const problem = summarizerSettingsProblem(summarizer);
  if (problem) throw new CompactionConfigError('compact', `summarizer.${problem.option}`, `is invalid: ${problem.detail}`);
  const { signal, counter, customInstructions } = options;
  const { reserveTokens } = preparation.settings;
  const base = { system: SUMMARIZER_SYSTEM_PROMPT, signal, counter };

  const summarizePart = (messages: readonly Message[], plan: Omit<SummaryPlan, keyof typeof base>) => summarizeBounded(messages, summarizer, { ...base, ...plan });

  // Both parts at once: a split turn's two summaries do not wait for each other.
  const [historySummary, prefixSummary] = await Promise.all([
    summarizePart(preparation.messagesToSummarize, {
      first: { purpose: 'history', prompt: historyPrompt },
      update: { purpose: 'history-update', prompt: updatePrompt },
      maxTokens: summaryBudget(reserveTokens, HISTORY_SHARE),
      previousSummary: preparation.previousSummary,
      customInstructions,
    }),
    summarizePart(preparation.turnPrefixMessages, {
      first: { purpose: 'turn-prefix', prompt: turnPrefixPrompt },
      update: { purpose: 'turn-prefix-update', prompt: turnPrefixUpdatePrompt },
      maxTokens: summaryBudget(reserveTokens, TURN_PREFIX_SHARE),
    }),
  ]);
  const historyText = historySummary?.text ?? preparation.previousSummary;
  const summary =
    (prefixSummary === undefined ? (historyText ?? '') : joinSplitTurn(historyText, prefixSummary.text)) +
    formatFileLists(preparation.fileLists);

  const tokensAfter = preparation.keptTokens + estimateTokens(compactionSummaryMessage(summary), counter);
  return {
    summary,
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    tokensAfter,
    tokensSaved: preparation.tokensBefore - tokensAfter,
    compactedEntryIds: preparation.compactedEntries.map((entry) => entry.id),
    isSplitTurn: preparation.isSplitTurn,
    details: preparation.fileLists,
    cleared: preparation.cleared,
    stripThinking: preparation.stripThinking,
    usage: addUsage(historySummary?.usage, prefixSummary?.usage),
    summarizerModel: historySummary?.model ?? prefixSummary?.model ?? summarizer.model,
    summarizerCalls: (historySummary?.calls ?? 0) + (prefixSummary?.calls ?? 0),
    warnings: [...(historySummary?.warnings ?? []), ...(prefixSummary?.warnings ?? [])],
  };
}
