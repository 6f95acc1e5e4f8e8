export * from './schema/message.js';
export * from './schema/usage.js';
export * from './schema/entry.js';
export { buildContext, entryMessage } from './context/build-context.js';
export { LOST_CALL_NOTE, LOST_RESULT_NOTE, repairTranscript, type RepairedTranscript, type RepairOptions, type TranscriptRepair } from './context/repair-transcript.js';
export { branchSummaryMessage, compactionSummaryMessage } from './context/summary-messages.js';
export { AppendOnlyList } from './log/append-only-list.js';
export * from './turn/events.js';
export * from './turn/effects.js';
export * from './turn/outcome.js';
export { TurnConfig, TurnConfigError, resolveTurnConfig, type ResolvedTurnConfig } from './turn/config.js';
export type { ActiveTurn, BoundaryReason, Delivery, IgnoredNote, OpenBatch, Pending, QueuedKind, QueuedMessage, TurnContext } from './turn/context.js';
export { turnMachine, type TurnMachine } from './turn/machine.js';
export { parseEvent } from './turn/parse-event.js';
export type { MachineEvent, InvalidEvent } from './turn/events.js';
export { start, step, replay, replayFrom, type StepResult } from './turn/step.js';
export { turnPhase, type TurnPhase } from './turn/turn-phase.js';
export {
  persistSnapshot,
  restoreSnapshot,
  serializeSnapshot,
  SnapshotRestoreError,
  type PersistedTurnSnapshot,
  type TurnSnapshot,
} from './turn/snapshot.js';
export { createTurnDriver, userMessage, type DrivenStep, type TurnDriver } from './turn/turn-driver.js';
export { toMermaid } from './diagram/to-mermaid.js';
export type { ModelRequest, ModelStreamPart, TillerModel, ToolSpec } from './model/model.js';
export { ModelError, type ModelErrorKind } from './model/model-error.js';
