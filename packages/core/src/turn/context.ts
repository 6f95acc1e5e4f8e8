import type { Entry } from '../schema/entry.js';
import type { Message, ToolCallPart, UserMessage } from '../schema/message.js';
import type { AppendOnlyList } from '../log/append-only-list.js';
import type { ApprovalDecision } from './events.js';
import type { TurnOutcome } from './outcome.js';

/** Why the turn stopped at a steering boundary. */
export type BoundaryReason = 'turn_start' | 'tool_batch' | 'overflow' | 'steer' | 'follow_up';

/** The one effect the turn waits on, with the id its answer must carry. */
export type Pending =
  | { effect: 'maybe_compact'; id: string; reason: BoundaryReason; force: boolean }
  | { effect: 'call_llm'; id: string; final: boolean }
  | { effect: 'run_tools'; id: string }
  | { effect: 'request_approval'; id: string; toolCallIds: string[] };

export type QueuedKind = 'steer' | 'follow_up';

/** A message the host sent while the model or the tools were busy, waiting for a boundary. */
export interface QueuedMessage {
  kind: QueuedKind;
  message: UserMessage;
  receivedAt: string;
  /** The state the turn was in when it arrived (`idle` when no turn was running). */
  receivedIn: string;
}

/** When and where a queued message joined the context. */
export interface Delivery {
  kind: QueuedKind;
  entryId: string;
  receivedAt: string;
  receivedIn: string;
  deliveredAt: string;
  boundary: BoundaryReason;
}

/** The tool calls of the assistant message the turn is answering. */
export interface OpenBatch {
  calls: ToolCallPart[];
  decisions: ApprovalDecision[];
}

export interface ActiveTurn {
  turnId: string;
  /** Completed tool rounds. */
  iterations: number;
  /** Counters behind the ids of the entries and effects the turn makes. */
  entrySeq: number;
  effectSeq: number;
  pending: Pending | null;
  overflowRetries: number;
  batch: OpenBatch | null;
  deliveries: Delivery[];
}

/** An input the core did not apply, kept so a host can see what was dropped and why. */
export interface IgnoredNote {
  eventType: string;
  reason: string;
  at?: string;
}

export interface TurnContext {
  maxIterations: number;
  /** The session path: what the turns built on plus everything they appended. */
  entries: AppendOnlyList<Entry>;
  /** How many of `entries` a `persist` effect has announced. */
  persisted: number;
  /** What the model sees: `buildContext(entries)`, kept up to date as entries are appended. */
  view: AppendOnlyList<Message>;
  queue: QueuedMessage[];
  turn: ActiveTurn | null;
  lastOutcome: TurnOutcome | null;
  ignored: { count: number; recent: IgnoredNote[] };
}

/** How many ignored inputs a snapshot remembers in detail (all are counted). */
export const IGNORED_NOTES_KEPT = 20;
