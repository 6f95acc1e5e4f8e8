import type { Entry } from '../schema/entry.js';
import type { Message, ToolCallPart, UserMessage } from '../schema/message.js';
import type { AppendOnlyList } from '../log/append-only-list.js';
import type { CallLlmEffect, MaybeCompactEffect, RequestApprovalEffect, RunToolsEffect } from './effects.js';
import type { ApprovalDecision } from './events.js';
import type { TurnOutcome } from './outcome.js';

/** Why the turn stopped at a steering boundary. */
export type BoundaryReason = 'turn_start' | 'tool_batch' | 'overflow' | 'steer' | 'follow_up';

/**
 * The blocking effect the turn waits on, as it was issued, less what the context holds anyway
 * (the messages of a model call, the calls of the open batch): the state's entry action adds
 * those back. Its answer is the input that carries the same `id`.
 */
export type Pending =
  | Readonly<MaybeCompactEffect>
  | Readonly<Omit<CallLlmEffect, 'context'>>
  | Readonly<Omit<RunToolsEffect, 'calls' | 'decisions'>>
  | Readonly<Omit<RequestApprovalEffect, 'calls'> & { toolCallIds: readonly string[] }>;

export type QueuedKind = 'steer' | 'follow_up';

/** A message the host sent while the model or the tools were busy, waiting for a boundary. */
export interface QueuedMessage {
  readonly kind: QueuedKind;
  readonly message: UserMessage;
  readonly receivedAt: string;
  /** The state the turn was in when it arrived. */
  readonly receivedIn: string;
}

/** When and where a queued message joined the context. */
export interface Delivery {
  readonly kind: QueuedKind;
  readonly entryId: string;
  readonly receivedAt: string;
  readonly receivedIn: string;
  readonly deliveredAt: string;
  readonly boundary: BoundaryReason;
}

/** The tool calls of the assistant message the turn is answering. */
export interface OpenBatch {
  readonly calls: readonly ToolCallPart[];
  readonly decisions: readonly ApprovalDecision[];
  /**
   * How many calls of the reply repeated each of these ids and were dropped (only the first call
   * with an id is kept); the result of that first call tells the model so. Absent when none did.
   */
  readonly repeats?: Readonly<Record<string, number>>;
}

export interface ActiveTurn {
  readonly turnId: string;
  /** Completed tool rounds. */
  readonly iterations: number;
  /** Counters behind the ids of the entries and effects the turn makes. */
  readonly entrySeq: number;
  readonly effectSeq: number;
  readonly pending: Pending | null;
  readonly overflowRetries: number;
  /** What the compaction forced by the last overflow did, until the next reply. */
  readonly overflowCompaction: 'compacted' | 'nothing_compacted' | null;
  /**
   * Why that compaction removed nothing, as its meta said (its error, or why it skipped); absent
   * when it did not say (and in snapshots written before this field).
   */
  readonly overflowCompactionWhy?: string | undefined;
  readonly batch: OpenBatch | null;
  readonly deliveries: readonly Delivery[];
}

/** An input the core did not apply, kept so a host can see what was dropped and why. */
export interface IgnoredNote {
  readonly eventType: string;
  readonly reason: string;
  readonly at?: string;
  /** The steer or follow-up that was dropped, so the host can send it again. */
  readonly message?: UserMessage;
}

/**
 * The turn's state. A snapshot shares everything in it with the snapshots before and after, so
 * it is read-only all the way down: a step builds a new context and never changes an old one.
 */
export interface TurnContext {
  readonly maxIterations: number;
  /** The session path: what the turns built on plus everything they appended. */
  readonly entries: AppendOnlyList<Entry>;
  /** How many of `entries` a `persist` effect has announced. */
  readonly persisted: number;
  /** What the model sees: `buildContext(entries)`, kept up to date as entries are appended. */
  readonly view: AppendOnlyList<Message>;
  readonly queue: readonly QueuedMessage[];
  readonly turn: ActiveTurn | null;
  readonly lastOutcome: TurnOutcome | null;
  readonly ignored: { readonly count: number; readonly recent: readonly IgnoredNote[] };
}

/** How many ignored inputs a snapshot remembers in detail (all are counted). */
export const IGNORED_NOTES_KEPT = 20;
