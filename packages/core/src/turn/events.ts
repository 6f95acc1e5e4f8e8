import { z } from 'zod';
import { Entry } from '../schema/entry.js';
import { AssistantMessage, StopReason, ToolResultContentPart, UserMessage } from '../schema/message.js';
import { Usage } from '../schema/usage.js';

/** Every input carries the time it happened: the core never reads a clock. */
const timed = { at: z.string().min(1) };

export const TurnStartEvent = z.object({
  type: z.literal('turn.start'),
  /** Unique per turn; the ids of the turn's entries and effects derive from it. */
  turnId: z.string().min(1),
  message: UserMessage,
  ...timed,
});

export const LlmDoneEvent = z.object({
  type: z.literal('llm.done'),
  /** The `id` of the `call_llm` effect this answers. */
  id: z.string().min(1),
  message: AssistantMessage,
  usage: Usage.optional(),
  stopReason: StopReason,
  ...timed,
});

export const LlmFailureKind = z.enum(['transient', 'overflow', 'fatal', 'aborted']);
export type LlmFailureKind = z.infer<typeof LlmFailureKind>;

export const LlmFailure = z.object({ kind: LlmFailureKind, message: z.string() });
export type LlmFailure = z.infer<typeof LlmFailure>;

export const LlmFailedEvent = z.object({
  type: z.literal('llm.failed'),
  id: z.string().min(1),
  error: LlmFailure,
  ...timed,
});

/** One tool's outcome; the core adds the tool's name and appends it in the order of the calls. */
export const ToolOutcome = z.object({
  toolCallId: z.string().min(1),
  content: z.array(ToolResultContentPart),
  isError: z.boolean(),
  details: z.unknown().optional(),
});
export type ToolOutcome = z.infer<typeof ToolOutcome>;

export const ToolsDoneEvent = z.object({
  type: z.literal('tools.done'),
  /** The `id` of the `run_tools` effect this answers. */
  id: z.string().min(1),
  results: z.array(ToolOutcome),
  ...timed,
});

export const ApprovalNeededEvent = z.object({
  type: z.literal('approval.needed'),
  /** The `id` of the `run_tools` effect whose policy asked. */
  id: z.string().min(1),
  /** The ids of the calls whose policy said `ask`. */
  toolCallIds: z.array(z.string().min(1)).min(1),
  ...timed,
});

export const ApprovalDecision = z.discriminatedUnion('decision', [
  z.object({ toolCallId: z.string().min(1), decision: z.literal('allow') }),
  z.object({ toolCallId: z.string().min(1), decision: z.literal('deny'), rationale: z.string() }),
]);
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const ApprovalDecidedEvent = z.object({
  type: z.literal('approval.decided'),
  /** The `id` of the `request_approval` effect this answers. */
  id: z.string().min(1),
  decisions: z.array(ApprovalDecision),
  ...timed,
});

/** What a compactor reports; `compacted` is always there, the rest depends on the compactor. */
export const CompactionMeta = z.looseObject({
  compacted: z.boolean(),
  strategy: z.string().optional(),
  tokensBefore: z.number().optional(),
  tokensAfter: z.number().optional(),
  tokensRemoved: z.number().optional(),
  error: z.string().optional(),
});
export type CompactionMeta = z.infer<typeof CompactionMeta>;

export const CompactionDoneEvent = z.object({
  type: z.literal('compaction.done'),
  /** The `id` of the `maybe_compact` effect this answers. */
  id: z.string().min(1),
  meta: CompactionMeta,
  /** The entries the compactor appended, continuing the turn's path. */
  appended: z.array(Entry),
  ...timed,
});

export const SteerEvent = z.object({ type: z.literal('steer'), message: UserMessage, ...timed });
export const FollowUpEvent = z.object({ type: z.literal('follow_up'), message: UserMessage, ...timed });
export const AbortEvent = z.object({
  type: z.literal('abort'),
  reason: z.string().optional(),
  /**
   * What the model had streamed of the reply being aborted. Its text and thinking are kept (with
   * `stopReason: 'aborted'`), so what the user saw stays in the transcript; a tool call that
   * streamed in part is not (it never ran).
   */
  partial: AssistantMessage.optional(),
  ...timed,
});

export const TurnEvent = z.discriminatedUnion('type', [
  TurnStartEvent,
  LlmDoneEvent,
  LlmFailedEvent,
  ToolsDoneEvent,
  ApprovalNeededEvent,
  ApprovalDecidedEvent,
  CompactionDoneEvent,
  SteerEvent,
  FollowUpEvent,
  AbortEvent,
]);
export type TurnEvent = z.infer<typeof TurnEvent>;
export type TurnEventType = TurnEvent['type'];
export type TurnEventOf<T extends TurnEventType> = Extract<TurnEvent, { type: T }>;

/** An input that failed its schema, as the machine sees it (made by `step`, never sent by a shell). */
export interface InvalidEvent {
  type: 'event.invalid';
  /** The `type` the input claimed, if it had a string one. */
  claimedType: string | undefined;
  reason: string;
  /** The input's `at`, when it had a string one. */
  at: string | undefined;
}

export type MachineEvent = TurnEvent | InvalidEvent;

/** The inputs that answer a blocking effect: each carries the `id` of the effect it answers. */
export type ResultEvent = TurnEventOf<'llm.done' | 'llm.failed' | 'tools.done' | 'approval.needed' | 'approval.decided' | 'compaction.done'>;
export type ResultEventType = ResultEvent['type'];
