import { type AssistantMessage, messageShapeProblem } from '@tiller/core';
import { describeThrown } from '../describe-thrown.js';

/**
 * Why a model's final message cannot become part of the turn, in words, or undefined when it can.
 * The reply goes into the journal and the session as JSON, and the core takes only an assistant
 * message of Tiller's shape; a model written by hand (where no types stood guard) or a provider
 * adapter with a bug would otherwise fail the turn with the core's "invalid input" naming none of
 * it. Checked before anything is written, so a reply that is refused leaves no trace but the failure.
 */
export function replyProblem(message: AssistantMessage): string | undefined {
  const json = jsonProblem(message);
  if (json) return `it cannot be stored as JSON: ${json}`;
  if ((message as { role: unknown }).role !== 'assistant') return `role: expected "assistant", got ${JSON.stringify(message.role)}`;
  const shape = messageShapeProblem(message);
  return shape && `${shape.field}: ${shape.reason}`;
}

/** Why `value` cannot be written as JSON (what `JSON.stringify` says), or undefined when it can. */
function jsonProblem(value: unknown): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (error) {
    return describeThrown(error);
  }
}
