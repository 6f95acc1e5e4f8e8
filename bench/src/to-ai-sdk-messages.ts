import type { Message } from '@tiller/core';
import type { ModelMessage } from 'ai';

/**
 * Tiller's messages in the AI SDK's shape, as a host of the SDK's loop keeps its conversation:
 * text, reasoning and tool calls on the assistant's side, one tool message per result.
 */
export function toAiSdkMessages(messages: readonly Message[]): ModelMessage[] {
  return messages.map((message): ModelMessage => {
    switch (message.role) {
      case 'user':
        return {
          role: 'user',
          content: typeof message.content === 'string' ? message.content : message.content.flatMap((part) => (part.type === 'text' ? [{ type: 'text' as const, text: part.text }] : [])),
        };
      case 'assistant':
        return {
          role: 'assistant',
          content: message.content.map((part) => {
            switch (part.type) {
              case 'text':
                return { type: 'text' as const, text: part.text };
              case 'thinking':
                return { type: 'reasoning' as const, text: part.thinking };
              case 'toolCall':
                return { type: 'tool-call' as const, toolCallId: part.id, toolName: part.name, input: part.args };
              default: {
                const unknown: never = part;
                throw new TypeError(`unknown assistant content ${JSON.stringify(unknown)}`);
              }
            }
          }),
        };
      case 'toolResult': {
        const value = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
        return {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: message.toolCallId, toolName: message.toolName, output: message.isError ? { type: 'error-text', value } : { type: 'text', value } }],
        };
      }
      default: {
        const unknown: never = message;
        throw new TypeError(`unknown message ${JSON.stringify(unknown)}`);
      }
    }
  });
}
