import type { Message } from '@tiller/core';

/** Tool output beyond this many characters is left out of a summarizer's transcript. */
export const TOOL_OUTPUT_LIMIT = 2_000;

function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[${text.length - limit} further characters omitted]`;
}

/**
 * One message as plain transcript lines. A summarizer gets the conversation as text, not as chat
 * turns, so that it describes the conversation instead of taking part in it.
 */
export function serializeMessage(message: Message): string {
  switch (message.role) {
    case 'user': {
      if (typeof message.content === 'string') return message.content ? `USER: ${message.content}` : '';
      const text = message.content
        .map((part) => (part.type === 'text' ? part.text : `[${part.type} ${part.mimeType}]`))
        .join('\n');
      return text ? `USER: ${text}` : '';
    }
    case 'assistant': {
      const lines: string[] = [];
      for (const part of message.content) {
        switch (part.type) {
          case 'thinking':
            if (part.thinking) lines.push(`ASSISTANT (reasoning): ${part.thinking}`);
            break;
          case 'text':
            if (part.text) lines.push(`ASSISTANT: ${part.text}`);
            break;
          case 'toolCall':
            lines.push(`ASSISTANT CALLS ${part.name} ${JSON.stringify(part.args)}`);
            break;
          default: {
            const unknownPart: never = part;
            throw new TypeError(`unknown assistant part ${JSON.stringify(unknownPart)}`);
          }
        }
      }
      return lines.join('\n');
    }
    case 'toolResult': {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : `[image ${part.mimeType}]`)).join('\n');
      const label = message.isError ? `${message.toolName} FAILED` : message.toolName;
      return text ? `RESULT OF ${label}: ${clip(text, TOOL_OUTPUT_LIMIT)}` : '';
    }
    default: {
      const unknownMessage: never = message;
      throw new TypeError(`unknown message role ${JSON.stringify(unknownMessage)}`);
    }
  }
}

/** A conversation as a transcript: one block per message, blank lines between. */
export function serializeConversation(messages: readonly Message[]): string {
  const blocks: string[] = [];
  for (const message of messages) {
    const block = serializeMessage(message);
    if (block) blocks.push(block);
  }
  return blocks.join('\n\n');
}
