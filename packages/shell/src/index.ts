// The host's API: agents, their options and events.
export { createAgent, type Agent, type UserInput } from './agent/create-agent.js';
export type { TurnReply } from './agent/last-reply.js';
export type { PostResult } from './agent/post-result.js';
export type { CloseOptions } from './agent/close-options.js';
export { resumeAgent, type ResumeOptions } from './agent/resume-agent.js';
export type { AgentLimits, AgentOptions } from './agent/agent-options.js';
export type { AgentEvent, AgentEventType, AgentListener, ShellEvent } from './agent/agent-event.js';
export type { InspectedActor, InspectionRecord, InspectOption, InspectorLike } from './runtime/inspection.js';

// Errors: one base with a code; `isInstance` works across installed copies.
export { ShellError, type ShellErrorCode } from './errors/shell-error.js';
export { AgentBrokenError } from './errors/agent-broken-error.js';
export { AgentBusyError } from './errors/agent-busy-error.js';
export { AgentClosedError } from './errors/agent-closed-error.js';
export { AgentOptionsError } from './errors/agent-options-error.js';
export { ApprovalError } from './errors/approval-error.js';
export { CompactionPolicyViolatedError } from './errors/compaction-policy-violated-error.js';
export { InvalidMessageError } from './errors/invalid-message-error.js';
export { JournalError } from './errors/journal-error.js';
export { JournalWriteError } from './errors/journal-write-error.js';
export { SessionBusyError } from './errors/session-busy-error.js';
export { ToolDefinitionError } from './errors/tool-definition-error.js';

// Models. The model protocol is defined in @tiller/core, so test models in @tiller/testing share it.
export { ModelError, type ModelErrorKind, type ModelRequest, type ModelStreamPart, type TillerModel, type ToolSpec } from '@tiller/core';
export { fromLanguageModel, type FromLanguageModelOptions } from './model/from-language-model.js';
export { toModelMessages } from './model/to-model-messages.js';
export { classifyModelError } from './model/classify-model-error.js';
export { modelSummarizer } from './model/model-summarizer.js';

// Tools.
export { defineTool, type Tool, type ToolContext, type ToolDefinition, type ToolOutput } from './tools/define-tool.js';
export type { PolicyDecision, ToolPolicy } from './tools/policy.js';
export type { ToolRefusal, ToolRefusalReason } from './tools/tool-refusal.js';

// The journal.
export { JOURNAL_VERSION, type JournalHeader, type JournalLine } from './journal/journal-format.js';
export { parseJournal, parseJournalLines, type ParsedJournal, type TornLine } from './journal/parse-journal.js';
export { tornLineWarning } from './journal/torn-line-warning.js';
export { fileJournal, type FileJournalOptions, journalPathFor, memoryJournal, type JournalStore } from './journal/journal-store.js';
export { replayJournal, type JournalDivergence, type JournalReplay, type ReplayJournalOptions } from './journal/replay-journal.js';

// What a durable engine (@tiller/restate, or a binding of your own) runs inside its own steps:
// the shell's model call, tool calls and compaction, and its rules for deciding an approval, so
// their logic is written once. See docs/durable.md.
export { resolveLimits } from './agent/agent-options.js';
export { checkCompactorFit } from './agent/check-compactor-fit.js';
export { tillerModelOption } from './agent/model-option.js';
export { runModelCall, type ModelCallAnswer, type ModelCallOptions } from './steps/run-model-call.js';
export type { ModelCallEvent } from './effects/call-model.js';
export type { PartialReplySink } from './runtime/partial-reply.js';
export { planToolBatch, type PlannedToolCall, type ToolBatchPlan, type ToolBatchPlanOptions } from './steps/plan-tool-batch.js';
export { runToolCall, type ToolCallOptions } from './steps/run-tool-call.js';
export { runCompaction, type CompactionOptions } from './steps/run-compaction.js';
export type { CompactionAnswer, CompactionEvent } from './effects/compact-at-boundary.js';
export { describeThrown } from './describe-thrown.js';
export { admitDecisions, type AdmittedDecisions, type DecisionRefusal, type ParkedDecisions } from './runtime/admit-decisions.js';
