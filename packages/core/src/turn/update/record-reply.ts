import type { AssistantMessage, ToolCallPart } from '../../schema/message.js';
import type { TurnEventOf } from '../events.js';
import { appendMessages } from './append-entries.js';
import type { WorkingContext } from './working-context.js';

export function toolCallsOf(message: AssistantMessage): ToolCallPart[] {
  return message.content.filter((p): p is ToolCallPart => p.type === 'toolCall');
}

/**
 * Appends the model's reply. Its tool calls become the open batch: whatever happens next, each
 * gets exactly one result before the model is called again.
 */
export function recordReply(work: WorkingContext, event: TurnEventOf<'llm.done'>): ToolCallPart[] {
  const turn = work.turn!;
  const message: AssistantMessage = {
    ...event.message,
    stopReason: event.stopReason,
    ...(event.usage ? { usage: event.usage } : {}),
  };
  appendMessages(work, event.at, [message]);
  turn.overflowRetries = 0;
  const calls = toolCallsOf(message);
  turn.batch = calls.length > 0 ? { calls, decisions: [] } : null;
  return calls;
}
