// The data: zod schemas are the one source of the types.
export {
  AssistantMessage,
  Message,
  StopReason,
  ToolResultMessage,
  UserMessage,
  type AssistantContentPart,
  type FilePart,
  type ImagePart,
  type TextPart,
  type ThinkingPart,
  type ToolCallPart,
  type ToolResultContentPart,
  type UserContentPart,
} from './schema/message.js';
export { messageShapeProblem, type MessageShapeProblem } from './schema/message-shape.js';
export { entryShapeProblem, type EntryShapeProblem } from './schema/entry-shape.js';
export { Usage, type Cost } from './schema/usage.js';
export {
  BranchSummaryEntry,
  CompactionEntry,
  CustomEntry,
  Entry,
  FileLists,
  MessageEntry,
  type CompactionProvenance,
  type EntryKind,
  type UserOrigin,
} from './schema/entry.js';

// What the model sees of a session path.
export { buildContext, collectContext, entryMessage } from './context/build-context.js';
export { LOST_CALL_NOTE, LOST_RESULT_NOTE, repairTranscript, type RepairedTranscript, type RepairOptions, type TranscriptRepair } from './context/repair-transcript.js';
export { branchSummaryMessage, compactionSummaryMessage } from './context/summary-messages.js';
export { countTurns } from './context/count-turns.js';

// The turn: inputs, effects, outcome, the machine and stepping it.
export {
  ApprovalDecision,
  CompactionMeta,
  LlmFailure,
  ToolOutcome,
  TurnEvent,
  type LlmFailureKind,
  type ResultEvent,
  type TurnEventOf,
  type TurnEventType,
} from './turn/events.js';
export {
  isBlockingEffect,
  type BlockingEffect,
  type CallLlmEffect,
  type Effect,
  type EffectType,
  type EmitEffect,
  type MaybeCompactEffect,
  type MessageList,
  type PersistEffect,
  type ProgressEvent,
  type RequestApprovalEffect,
  type RunToolsEffect,
} from './turn/effects.js';
export { TurnOutcome, type TurnStatus } from './turn/outcome.js';
export type { TurnConfig } from './turn/config.js';
export type { ActiveTurn, BoundaryReason, Delivery, IgnoredNote, OpenBatch, Pending, QueuedKind, QueuedMessage, TurnContext } from './turn/context.js';
export { turnMachine, type TurnMachine } from './turn/machine.js';
export { parseEvent } from './turn/parse-event.js';
export type { MachineEvent, InvalidEvent } from './turn/events.js';
export { start, step, replay, replayFrom, type StepResult } from './turn/step.js';
export { pendingEffect } from './turn/blocking-effect.js';
export { persistSnapshot, restoreSnapshot, serializeSnapshot, type PersistedTurnSnapshot, type TurnSnapshot } from './turn/snapshot.js';
// What a journal records of each step, so every reader (the shell's replay, the inspector, an
// engine) checks a replay against the recording the same way, and splits a torn line the same way.
export { effectDigest, effectsHash } from './turn/effect-digest.js';
export { splitTornLine, type SplitTornLine } from './journal/split-torn-line.js';
export { settleInterruptedCalls, type BatchRecord, type InterruptedCall, type SettledBatch } from './turn/settle-interrupted-calls.js';

// Diagrams of the machine, made from its definition.
export { machineGraph, type GraphState, type GraphTransition, type MachineGraph } from './diagram/machine-graph.js';
export { toDot } from './diagram/to-dot.js';
export { toMermaid } from './diagram/to-mermaid.js';

// The model protocol, shared by the shell and test models.
export type { ModelRequest, ModelStreamPart, TillerModel, ToolSpec } from './model/model.js';

// Errors.
export { TillerCoreError, type CoreErrorCode } from './errors/tiller-core-error.js';
export { TurnConfigError } from './turn/turn-config-error.js';
export { SnapshotRestoreError } from './turn/snapshot-restore-error.js';
export { ModelError, type ModelErrorKind } from './model/model-error.js';
