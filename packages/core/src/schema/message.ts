import { z } from 'zod';
import { Usage } from './usage.js';

export const TextPart = z.object({ type: z.literal('text'), text: z.string() });
export type TextPart = z.infer<typeof TextPart>;

/** Base64 image data; `mimeType` such as `image/png`. */
export const ImagePart = z.object({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string().min(1),
});
export type ImagePart = z.infer<typeof ImagePart>;

/** A file handed to the model: base64 data, or a URL the provider can fetch. */
export const FilePart = z.object({
  type: z.literal('file'),
  data: z.string(),
  mimeType: z.string().min(1),
  name: z.string().optional(),
});
export type FilePart = z.infer<typeof FilePart>;

/**
 * Model reasoning. Providers that sign reasoning (Anthropic) need the signature back verbatim;
 * `redacted` marks reasoning the provider returned encrypted: its `signature` is then the
 * encrypted data, to send back as it came (pi keeps it the same way).
 */
export const ThinkingPart = z.object({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.string().optional(),
  redacted: z.boolean().optional(),
});
export type ThinkingPart = z.infer<typeof ThinkingPart>;

export const ToolCallPart = z.object({
  type: z.literal('toolCall'),
  id: z.string().min(1),
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()),
  /**
   * The text the model sent as arguments, when it was not a JSON object (`args` is then `{}`):
   * kept, so the log holds what the model said, and the call is answered with why it did not run.
   */
  unparsedArgs: z.string().optional(),
});
export type ToolCallPart = z.infer<typeof ToolCallPart>;

export const UserContentPart = z.discriminatedUnion('type', [TextPart, ImagePart, FilePart]);
export type UserContentPart = z.infer<typeof UserContentPart>;

export const AssistantContentPart = z.discriminatedUnion('type', [TextPart, ThinkingPart, ToolCallPart]);
export type AssistantContentPart = z.infer<typeof AssistantContentPart>;

export const ToolResultContentPart = z.discriminatedUnion('type', [TextPart, ImagePart]);
export type ToolResultContentPart = z.infer<typeof ToolResultContentPart>;

/** Why the model stopped: pi's vocabulary, so sessions move between the two unchanged. */
export const StopReason = z.enum(['stop', 'length', 'toolUse', 'error', 'aborted']);
export type StopReason = z.infer<typeof StopReason>;

export const UserMessage = z.object({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(UserContentPart)]),
});
export type UserMessage = z.infer<typeof UserMessage>;

export const AssistantMessage = z.object({
  role: z.literal('assistant'),
  content: z.array(AssistantContentPart),
  /** What the provider reported for the call that produced this message. */
  usage: Usage.optional(),
  stopReason: StopReason.optional(),
  /** `provider/model-id` or the bare id: which model wrote this. */
  model: z.string().optional(),
  errorMessage: z.string().optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessage>;

export const ToolResultMessage = z.object({
  role: z.literal('toolResult'),
  toolCallId: z.string().min(1),
  toolName: z.string(),
  content: z.array(ToolResultContentPart),
  isError: z.boolean(),
  /** Structured data for hosts and UIs; never sent to the model. */
  details: z.unknown().optional(),
});
export type ToolResultMessage = z.infer<typeof ToolResultMessage>;

export const Message = z.discriminatedUnion('role', [UserMessage, AssistantMessage, ToolResultMessage]);
export type Message = z.infer<typeof Message>;
