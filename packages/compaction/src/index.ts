// The Compactor contract: what a compactor author implements, and what the shell calls.
export {
  type CompactionAcc,
  type CompactionContext,
  type CompactionHooks,
  type CompactionMeta,
  type CompactionOutcome,
  type CompactionStrategyName,
  type Compactor,
  isCompactor,
  NoOpCompactor,
} from './compactor.js';
export { runCompactor, type CompactorRun, type RunCompactorOptions } from './run-compactor.js';
export type { HookTeller } from './after-compact-hooks.js';
export type { TakenIds } from './appended-entries-problem.js';
export { compactionEntry, type CompactionEntryFields, type CompactionEntryIds } from './compaction-entry.js';
export { WindowManager, type WindowManagerInput } from './window-manager.js';

// pi's algorithm, step by step, for a compactor of one's own.
export { compact, type CompactOptions, type CompactionResult } from './compact.js';
export { type CompactionPreparation, prepareCompaction, type PrepareOptions } from './prepare-compaction.js';
export { type CutPoint, findCutPoint } from './find-cut-point.js';
export { serializeConversation } from './serialize-conversation.js';
export { SUMMARIZER_SYSTEM_PROMPT, SUMMARY_SECTIONS } from './prompts.js';
export { compactionSettings, type CompactionSettings, DEFAULT_COMPACTION_SETTINGS, shouldCompact } from './settings.js';
export type { FileTools } from './file-operations.js';
export type { SummarizeRequest, SummarizeResult, Summarizer, SummaryPurpose } from './summarizer.js';

// Tokens.
export {
  calculateContextTokens,
  type ContextTokenEstimate,
  estimateContextTokens,
  estimateSpanTokens,
  estimateTextTokens,
  estimateTokens,
} from './estimate-tokens.js';
export { createTokenLedger, estimatePathContextTokens, type LedgerEstimate, type LedgerOptions, type TokenLedger } from './token-ledger.js';
export type { TokenCounter } from './token-counter.js';
export { loadTiktokenCounter, type TiktokenEncoding } from './tiktoken-counter.js';
export { createModelCatalog, defaultModelCatalog, type ModelCatalog } from './model-catalog.js';

// Policies: how a session is kept inside its window, with the premises checked.
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

// Errors: one base with a code; `isInstance` works across installed copies.
export {
  CompactionConfigError,
  CompactionError,
  type CompactionErrorCode,
  CompactionPolicyError,
  CompactionPolicyViolation,
  MalformedMessageError,
  type PolicyViolationFacts,
  TillerCompactionError,
  type TillerCompactionErrorCode,
} from './errors/index.js';
