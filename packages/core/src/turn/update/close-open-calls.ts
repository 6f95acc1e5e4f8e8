import type { ToolCallPart, ToolResultMessage } from '../../schema/message.js';
import { appendMessages } from './append-entries.js';
import type { WorkingContext } from './working-context.js';

/** A result the core writes for a call that will never get a real one, saying why. */
export function syntheticResult(call: ToolCallPart, why: string): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text: why }],
    isError: true,
  };
}

/** Gives each open call a synthetic error result, so the transcript stays valid. */
export function closeOpenCalls(work: WorkingContext, at: string, why: string, calls: readonly ToolCallPart[]): void {
  if (calls.length > 0) {
    appendMessages(work, at, calls.map((call) => syntheticResult(call, why)));
  }
  work.turn!.batch = null;
}
