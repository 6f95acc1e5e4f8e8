export { createAgent, type Agent, type UserInput } from './agent/create-agent.js';
export { AgentLimits, AgentOptions, type ResolvedAgentOptions } from './agent/agent-options.js';
export { AgentBrokenError, AgentBusyError, AgentOptionsError, ApprovalError } from './errors.js';
export type { AgentEvent, AgentEventType, AgentListener, ShellEvent } from './agent/agent-event.js';
export type { InspectionRecord, InspectOption, InspectorLike } from './agent/inspection.js';
export { retryDelay, type RetrySettings } from './agent/retry-delay.js';
// The model protocol is defined in @tiller/core, so test models in @tiller/testing share it.
export { ModelError, type ModelErrorKind, type ModelRequest, type ModelStreamPart, type TillerModel, type ToolSpec } from '@tiller/core';
export type { ModelFailure } from './model/model-error.js';
export { defineTool, isTool, ToolDefinitionError, type Tool, type ToolContext, type ToolDefinition, type ToolOutput } from './tools/define-tool.js';
export type { PolicyDecision, ToolPolicy } from './tools/policy.js';
export { JOURNAL_FORMAT, JOURNAL_VERSION, JournalError, type JournalHeader, type JournalLine, effectDigest, parseJournalLines } from './journal/journal-format.js';
export { fileJournal, type FileJournalOptions, journalPathFor, memoryJournal, type JournalStore } from './journal/journal-store.js';
export { replayJournal, type JournalDivergence, type JournalReplay, type ReplayJournalOptions } from './journal/replay-journal.js';
export { fromLanguageModel, type FromLanguageModelOptions } from './model/from-language-model.js';
export { classifyModelError, retryAfterMs } from './model/classify-model-error.js';
export { toModelMessages } from './model/to-model-messages.js';
export { modelSummarizer } from './model/model-summarizer.js';
export { resumeAgent, type ResumeOptions } from './agent/resume-agent.js';
// The handlers of three effects, for engines that run them inside their own durable steps (@tiller/restate).
export { runToolBatch, type ToolBatchOptions, type ToolBatchResult } from './tools/run-tool-batch.js';
export { callModel, type CallModelDeps } from './agent/call-model.js';
export { resolveCompaction, type CompactionDeps, type ResolvedCompaction } from './agent/resolve-compaction.js';
export type { EventSink } from './agent/event-hub.js';
