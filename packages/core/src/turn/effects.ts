import type { Entry } from '../schema/entry.js';
import type { Message, ToolCallPart, ToolResultMessage } from '../schema/message.js';
import type { ApprovalDecision, CompactionMeta } from './events.js';
import type { BoundaryReason, Delivery, IgnoredNote } from './context.js';
import type { TurnOutcome } from './outcome.js';

/**
 * A read-only view of the messages the model sees. It is shared with the turn's state, so
 * handing it out costs nothing; `toArray()` copies it, `lend()` gives the array itself when it
 * can (the core appends nothing while a model call is pending).
 */
export interface MessageList extends Iterable<Message> {
  readonly length: number;
  at(index: number): Message | undefined;
  slice(from?: number, to?: number): Message[];
  toArray(): Message[];
  /** The messages without a copy where possible; valid while the call it was made for runs. */
  lend(): readonly Message[];
}

/**
 * A blocking effect's `id` is unique within its session (it derives from the turn's id), and the
 * input that answers the effect carries the same `id`.
 */
export interface MaybeCompactEffect {
  type: 'maybe_compact';
  id: string;
  /** True between the tool rounds of one turn (the context ends with tool results). */
  midRound: boolean;
  reason: BoundaryReason;
  /** The context overflowed: compact even if the estimate says it fits. */
  force: boolean;
}

export interface CallLlmEffect {
  type: 'call_llm';
  id: string;
  context: MessageList;
  /** The last call of a turn that hit its iteration cap: offer the model no tools. */
  final: boolean;
}

export interface RunToolsEffect {
  type: 'run_tools';
  id: string;
  calls: readonly ToolCallPart[];
  /** Decisions the host already made for calls whose policy asked; apply them, do not ask again. */
  decisions: readonly ApprovalDecision[];
}

export interface RequestApprovalEffect {
  type: 'request_approval';
  id: string;
  calls: readonly ToolCallPart[];
}

export interface PersistEffect {
  type: 'persist';
  entries: Entry[];
}

export interface EmitEffect {
  type: 'emit';
  event: ProgressEvent;
}

/** The effects that leave the turn waiting for an answer; one of them ends every step that has one. */
export type BlockingEffect = MaybeCompactEffect | CallLlmEffect | RunToolsEffect | RequestApprovalEffect;
export type Effect = BlockingEffect | PersistEffect | EmitEffect;
export type EffectType = Effect['type'];

export const BLOCKING_EFFECTS: ReadonlySet<EffectType> = new Set(['maybe_compact', 'call_llm', 'run_tools', 'request_approval']);

export function isBlockingEffect(effect: Effect): effect is BlockingEffect {
  return BLOCKING_EFFECTS.has(effect.type);
}

/** What subscribers and inspectors hear about a turn's progress. */
export type ProgressEvent =
  | { type: 'turn.started'; turnId: string; at: string }
  | { type: 'message.added'; entryId: string; message: Message }
  | { type: 'tools.started'; batchId: string; calls: readonly ToolCallPart[] }
  | { type: 'tools.finished'; batchId: string; results: ToolResultMessage[] }
  | { type: 'approval.requested'; batchId: string; calls: readonly ToolCallPart[] }
  | { type: 'messages.delivered'; deliveries: Delivery[] }
  | { type: 'compaction.finished'; compactionId: string; meta: CompactionMeta }
  | { type: 'turn.ended'; outcome: TurnOutcome }
  | { type: 'event.ignored'; note: IgnoredNote };
