import type { AssistantMessage, Message, StopReason } from '../schema/message.js';
import type { Usage } from '../schema/usage.js';

/** A tool as the model is told about it: its name, what it does, and its input as JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** One model call. `tools` is empty when the turn wants a final answer without tools. */
export interface ModelRequest {
  /** Lent for this call: read it during the call, copy what must outlive it. */
  messages: readonly Message[];
  tools: ToolSpec[];
  system?: string | undefined;
  /** Upper bound for the reply, when the caller has one (a summary's length). */
  maxOutputTokens?: number | undefined;
  /** Aborted when the turn is aborted; a model stops streaming and throws. */
  signal: AbortSignal;
}

/**
 * What a model streams: deltas for subscribers, then exactly one `done` with the whole message.
 * Only the `done` message enters the turn; deltas are for display.
 */
export type ModelStreamPart =
  | { type: 'text-delta'; delta: string }
  | { type: 'thinking-delta'; delta: string }
  | { type: 'toolcall-delta'; toolCallId: string; toolName: string; delta: string }
  | { type: 'done'; message: AssistantMessage; stopReason: StopReason; usage?: Usage | undefined };

/**
 * The model interface the shell calls (and test models implement). A failed call throws a `ModelError` saying whether a retry
 * can help (`transient`), the context is too large (`overflow`), or neither (`fatal`).
 */
export interface TillerModel {
  /** `provider/model-id` or a bare id; recorded on the assistant messages. */
  readonly id: string;
  /** Tokens the model accepts, when known: requests estimated above it fail as overflow without a call. */
  readonly contextWindow?: number | undefined;
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}
