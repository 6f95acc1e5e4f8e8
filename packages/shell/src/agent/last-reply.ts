import type { AssistantMessage, TurnContext } from '@tiller/core';

/** The model's answer that ended a turn. */
export interface TurnReply {
  /** The message as the session holds it. */
  readonly message: AssistantMessage;
  /** Its text parts, joined: what a host shows as the answer ('' for a reply of thinking alone). */
  readonly text: string;
}

/**
 * The reply that ended the last turn, read from the core's context: once a turn is over, its last
 * entry is the model's message when the turn ended on one (an answer, one cut by `length`, an
 * error reply, a stream aborted midway). Any other ending leaves the turn's own user message or
 * a tool result last, so a reply of an earlier turn is never taken for it.
 */
export function lastReplyOf(context: TurnContext): TurnReply | undefined {
  if (context.turn || !context.lastOutcome) return undefined;
  const last = context.entries.last();
  if (last?.kind !== 'message' || last.message.role !== 'assistant') return undefined;
  const message = last.message;
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  return { message, text };
}
