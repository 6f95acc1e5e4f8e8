import type { Entry, Message, Usage } from '@tiller/core';
import { entryMessage, messageShapeProblem } from '@tiller/core';
import { MalformedMessageError } from './errors/index.js';
import type { TokenCounter } from './token-counter.js';

/** What one image (or file) in a message is taken to cost: pi's figure for tool-result images. */
export const IMAGE_TOKENS = 1_200;

/**
 * Han, kana, Hangul and the CJK punctuation and full-width forms. A chars/4 estimate is right for
 * English and code but counts these 3-4 times too low: tokenizers give most of them a token each.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const CJK_ALL = new RegExp(CJK.source, 'gu');

/** Running tally for the heuristic: UTF-16 code units outside CJK, CJK characters, images. */
interface Tally {
  chars: number;
  cjk: number;
  images: number;
}

function addText(tally: Tally, text: string): void {
  if (!CJK.test(text)) {
    tally.chars += text.length;
    return;
  }
  let cjkUnits = 0;
  let cjkChars = 0;
  for (const match of text.match(CJK_ALL) ?? []) {
    cjkUnits += match.length;
    cjkChars += 1;
  }
  tally.chars += text.length - cjkUnits;
  tally.cjk += cjkChars;
}

/**
 * Calls `text` with every piece of text a message sends and returns how many images/files it
 * holds. A message not shaped as the schema says (a compactor's or a policy's own data, written
 * in JavaScript) is refused before anything is counted, naming `where` and the field.
 */
function visitMessage(message: Message, text: (piece: string) => void, where: string): number {
  const problem = messageShapeProblem(message);
  if (problem) throw new MalformedMessageError(where, problem.field, problem.reason);
  let images = 0;
  switch (message.role) {
    case 'user': {
      if (typeof message.content === 'string') {
        text(message.content);
        return 0;
      }
      for (const part of message.content) {
        if (part.type === 'text') text(part.text);
        else images += 1;
      }
      return images;
    }
    case 'assistant': {
      for (const [index, part] of message.content.entries()) {
        switch (part.type) {
          case 'text':
            text(part.text);
            break;
          case 'thinking':
            text(part.thinking);
            break;
          case 'toolCall':
            text(part.name);
            text(argsJson(part.args, where, `content[${index}].args`));
            break;
          default: {
            const unknownPart: never = part;
            throw new TypeError(`unknown assistant part ${JSON.stringify(unknownPart)}`);
          }
        }
      }
      return 0;
    }
    case 'toolResult': {
      for (const part of message.content) {
        if (part.type === 'text') text(part.text);
        else images += 1;
      }
      return images;
    }
    default: {
      const unknownMessage: never = message;
      throw new TypeError(`unknown message role ${JSON.stringify(unknownMessage)}`);
    }
  }
}

/** Arguments held as plain data: a BigInt or a cycle in them is named, not a bare TypeError. */
function argsJson(args: unknown, where: string, field: string): string {
  try {
    return JSON.stringify(args);
  } catch (error) {
    throw new MalformedMessageError(where, field, `cannot be written as JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
}

/**
 * Estimated tokens of one message. Without a counter: ceil(other characters / 4) + one token per
 * CJK character + 1,200 per image or file part, where "characters" are UTF-16 code units as in
 * pi. Text is what the model is sent: user text, assistant text, thinking, tool names with their
 * JSON arguments, tool-result text. With a counter, its exact count replaces the text part.
 * A message that is not what the schema says throws `MalformedMessageError` naming the field.
 */
export function estimateTokens(message: Message, counter?: TokenCounter): number {
  return estimateMessageTokens(message, counter, 'estimateTokens: the message');
}

/** `estimateTokens`, with `where` naming the caller and the message in an error (`token ledger: entry "e7"`). */
export function estimateMessageTokens(message: Message, counter: TokenCounter | undefined, where: string): number {
  if (counter) {
    let counted = 0;
    const images = visitMessage(
      message,
      (piece) => {
        counted += counter.count(piece);
      },
      where,
    );
    return counted + images * IMAGE_TOKENS;
  }
  const tally: Tally = { chars: 0, cjk: 0, images: 0 };
  tally.images = visitMessage(message, (piece) => addText(tally, piece), where);
  return Math.ceil(tally.chars / 4) + tally.cjk + tally.images * IMAGE_TOKENS;
}

/** Estimated tokens of a bare piece of text, by the same rule. */
export function estimateTextTokens(text: string, counter?: TokenCounter): number {
  if (counter) return counter.count(text);
  const tally: Tally = { chars: 0, cjk: 0, images: 0 };
  addText(tally, text);
  return Math.ceil(tally.chars / 4) + tally.cjk;
}

/** The context size a model call reported: its total, or the sum of its parts when it gave none. */
export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** The usage of an assistant message that finished normally; aborted and failed calls report none worth trusting. */
export function trustedUsage(message: Message): Usage | undefined {
  // `?.`: a list handed in by JavaScript may hold null; the estimate that follows names it.
  if (message?.role !== 'assistant' || !message.usage) return undefined;
  if (message.stopReason === 'aborted' || message.stopReason === 'error') return undefined;
  return message.usage;
}

/**
 * `trustedUsage`, for a message whose usage an estimate adds up: the message is checked first, so
 * a usage the schema refuses (a count that is a string, `NaN`) is named with `where` and the
 * field, never summed into a figure that is wrong without saying so.
 */
export function anchorUsage(message: Message, where: string): Usage | undefined {
  const usage = trustedUsage(message);
  if (usage) {
    const problem = messageShapeProblem(message);
    if (problem) throw new MalformedMessageError(where, problem.field, problem.reason);
  }
  return usage;
}

export interface ContextTokenEstimate {
  /** `usageTokens + trailingTokens`. */
  tokens: number;
  /** What the provider reported for the last trusted call (0 when none). */
  usageTokens: number;
  /** Estimates of everything after that call (of everything, when there was none). */
  trailingTokens: number;
  /** Index of the message whose usage anchors the estimate; null when nothing reported usage. */
  lastUsageIndex: number | null;
}

/**
 * The context's size: the last trusted usage a provider reported (it counts everything the model
 * was sent, system prompt included), plus estimates of the messages after it.
 */
export function estimateContextTokens(messages: readonly Message[], counter?: TokenCounter): ContextTokenEstimate {
  let anchor = -1;
  let usageTokens = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const usage = anchorUsage(messages[i]!, `estimateContextTokens: messages[${i}]`);
    if (usage) {
      anchor = i;
      usageTokens = calculateContextTokens(usage);
      break;
    }
  }
  let trailingTokens = 0;
  for (let i = anchor + 1; i < messages.length; i++) trailingTokens += estimateMessageTokens(messages[i]!, counter, `estimateContextTokens: messages[${i}]`);
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: anchor < 0 ? null : anchor };
}

/** Estimated tokens of the messages a run of entries contributes, each as it stands (no compaction applied). */
export function estimateSpanTokens(entries: readonly Entry[], counter?: TokenCounter): number {
  let total = 0;
  for (const entry of entries) {
    const message = entryMessage(entry);
    if (message) total += estimateMessageTokens(message, counter, `estimateSpanTokens: entry ${JSON.stringify(entry.id)}`);
  }
  return total;
}
