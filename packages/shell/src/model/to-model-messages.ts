import type { Message, ThinkingPart, ToolResultMessage } from '@tiller/core';
import type { AssistantModelMessage, ModelMessage, ToolResultPart, UserModelMessage } from 'ai';

type UserPart = Exclude<UserModelMessage['content'], string>[number];
type AssistantPart = Exclude<AssistantModelMessage['content'], string>[number];

/**
 * Tiller's messages as the AI SDK's `ModelMessage`s: what `fromLanguageModel` sends a provider.
 * For a host that also calls the AI SDK itself over the same conversation, for example a one-off
 * `generateText({ model, messages: toModelMessages(session.context()) })` beside the agent.
 *
 * Text, images and files of the user; text, thinking (its signature kept, as Anthropic's
 * `providerOptions`, for providers that check it; a redacted block's data likewise) and tool calls of the assistant; one `tool`
 * message per tool result, text results as `text` (or `error-text`), results with images as
 * `content`. What says nothing is left out: blank text, empty unsigned thinking, and a user or assistant
 * message with nothing else (a model that said nothing). The messages are not checked: give it
 * what a session's `context()` holds.
 */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    const converted = toModelMessage(message);
    if (converted) out.push(converted);
  }
  return out;
}

/**
 * One message, without the parts that say nothing (blank text, thinking that is empty and
 * unsigned); undefined when none is left. Anthropic refuses an empty message or a blank text block,
 * and would refuse every later request of the session with it. A tool result always goes: its call
 * needs it.
 */
function toModelMessage(message: Message): ModelMessage | undefined {
  switch (message.role) {
    case 'user': {
      if (typeof message.content === 'string') return isBlank(message.content) ? undefined : { role: 'user', content: message.content };
      const content = message.content.flatMap((part): UserPart[] => {
        switch (part.type) {
          case 'text':
            return isBlank(part.text) ? [] : [{ type: 'text' as const, text: part.text }];
          case 'image':
            return [{ type: 'image' as const, image: part.data, mediaType: part.mimeType }];
          case 'file':
            return [{ type: 'file' as const, data: part.data, mediaType: part.mimeType, ...(part.name ? { filename: part.name } : {}) }];
          default: {
            const unknown: never = part;
            throw new TypeError(`unknown user content ${JSON.stringify(unknown)}`);
          }
        }
      });
      return content.length > 0 ? { role: 'user', content } : undefined;
    }
    case 'assistant': {
      const content = message.content.flatMap((part): AssistantPart[] => {
        switch (part.type) {
          case 'text':
            return isBlank(part.text) ? [] : [{ type: 'text' as const, text: part.text }];
          case 'thinking':
            // Signed thinking with no text (Anthropic's omitted display) must go back as it came.
            return part.thinking === '' && !part.signature && !part.redacted ? [] : [reasoning(part)];
          case 'toolCall':
            return [{ type: 'tool-call' as const, toolCallId: part.id, toolName: part.name, input: part.args }];
          default: {
            const unknown: never = part;
            throw new TypeError(`unknown assistant content ${JSON.stringify(unknown)}`);
          }
        }
      });
      return content.length > 0 ? { role: 'assistant', content } : undefined;
    }
    case 'toolResult':
      return { role: 'tool', content: [toolResult(message)] };
    default: {
      const unknown: never = message;
      throw new TypeError(`unknown message ${JSON.stringify(unknown)}`);
    }
  }
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** A redacted block's signature is its encrypted data, which Anthropic takes back as `redactedData`. */
function reasoning(part: ThinkingPart) {
  const anthropic = !part.signature ? undefined : part.redacted ? { redactedData: part.signature } : { signature: part.signature };
  return { type: 'reasoning' as const, text: part.thinking, ...(anthropic ? { providerOptions: { anthropic } } : {}) };
}

function toolResult(message: ToolResultMessage): ToolResultPart {
  const base = { type: 'tool-result' as const, toolCallId: message.toolCallId, toolName: message.toolName };
  if (message.content.every((p) => p.type === 'text')) {
    const value = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    return { ...base, output: message.isError ? { type: 'error-text', value } : { type: 'text', value } };
  }
  return {
    ...base,
    output: {
      type: 'content',
      value: message.content.map((p) => (p.type === 'text' ? { type: 'text' as const, text: p.text } : { type: 'media' as const, data: p.data, mediaType: p.mimeType })),
    },
  };
}
