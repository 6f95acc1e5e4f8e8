export { compact, type CompactOptions, type CompactionResult } from './compact.js';
export { compactionEntry, type CompactionEntryFields, type CompactionEntryIds } from './compaction-entry.js';
export {
  type CompactionAcc,
  type CompactionContext,
  type CompactionHooks,
  type CompactionMeta,
  type CompactionOutcome,
  type CompactionStrategyName,
  type Compactor,
  NoOpCompactor,
} from './compactor.js';
export { runCompactor, type CompactorRun, type RunCompactorOptions } from './run-compactor.js';
export {
  CompactionConfigError,
  CompactionError,
  type CompactionErrorCode,
  CompactionPolicyError,
  CompactionPolicyViolation,
  type PolicyViolationFacts,
  TillerCompactionError,
  type TillerCompactionErrorCode,
} from './errors.js';
export {
  calculateContextTokens,
  type ContextTokenEstimate,
  estimateContextTokens,
  estimateSpanTokens,
  estimateTextTokens,
  estimateTokens,
  IMAGE_TOKENS,
} from './estimate-tokens.js';
export { createFileTracker, DEFAULT_FILE_TOOLS, type FileTracker, FileTools, formatFileLists } from './file-operations.js';
export { type CutPoint, findCutPoint, findTurnStartIndex } from './find-cut-point.js';
export { createModelCatalog, defaultModelCatalog, KNOWN_CONTEXT_WINDOWS, type ModelCatalog } from './model-catalog.js';
export {
  type BindOptions,
  CompactionPolicy,
  type CompactionPolicyKind,
  type ContextObservation,
  POLICY_SCENARIOS,
  type PolicyBinding,
  type PolicyManifest,
  type PolicyScenario,
  policyForScenario,
  type ScenarioOptions,
  type SummarizerChoice,
} from './policy.js';
export { type CompactionPreparation, prepareCompaction, type PrepareOptions } from './prepare-compaction.js';
export { SUMMARIZER_SYSTEM_PROMPT, SUMMARY_SECTIONS, TURN_PREFIX_SECTIONS } from './prompts.js';
export { serializeConversation, serializeMessage } from './serialize-conversation.js';
export { compactionSettings, CompactionSettings, DEFAULT_COMPACTION_SETTINGS, shouldCompact } from './settings.js';
export { addUsage, type SummarizeRequest, type SummarizeResult, type Summarizer, type SummaryPurpose } from './summarizer.js';
export { loadTiktokenCounter, type TiktokenEncoding } from './tiktoken-counter.js';
export type { TokenCounter } from './token-counter.js';
export { createTokenLedger, estimatePathContextTokens, type LedgerEstimate, type LedgerOptions, type TokenLedger } from './token-ledger.js';
export {
  DEFAULT_CLEARED_PLACEHOLDER,
  WindowManager,
  type WindowManagerInput,
  WindowManagerOptions,
} from './window-manager.js';
