import type { Message } from '@tiller/core';

/**
 * A rough count of what the model was sent, for calls the provider reported no usage for: four
 * characters a token over the text, the arguments and the results, 1,200 an image. The page says
 * it is an estimate wherever it shows one; the provider's figure, when there is one, is the truth.
 */
export function estimateTokens(messages: Iterable<Message>): number {
  let total = 0;
  for (const message of messages) total += messageTokens(message);
  return Math.ceil(total);
}

/**
 * Messages are shared between the contexts of successive calls, so each is counted once: a run
 * of n calls costs n sums of cached numbers, not n passes over all the text.
 */
const counted = new WeakMap<Message, number>();

function messageTokens(message: Message): number {
  const known = counted.get(message);
  if (known !== undefined) return known;
  let chars = 0;
  let images = 0;
  if (typeof message.content === 'string') chars = message.content.length;
  else {
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
          chars += part.text.length;
          break;
        case 'thinking':
          chars += part.thinking.length;
          break;
        case 'toolCall':
          chars += part.name.length + JSON.stringify(part.args ?? {}).length;
          break;
        case 'image':
        case 'file':
          images += 1;
          break;
      }
    }
  }
  const tokens = chars / 4 + images * 1_200;
  counted.set(message, tokens);
  return tokens;
}
