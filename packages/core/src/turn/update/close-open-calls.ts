import type { Draft } from 'immer';
import type { ToolCallPart, ToolResultMessage } from '../../schema/message.js';
import type { TurnContext } from '../context.js';
import { appendNew } from './append-entries.js';

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

/** Gives every call of the open batch a synthetic error result, so the transcript stays valid. */
export function closeOpenCalls(draft: Draft<TurnContext>, at: string, why: string): void {
  const batch = draft.turn?.batch;
  if (!batch) return;
  appendNew(
    draft,
    at,
    batch.calls.map((call) => ({ kind: 'message', message: syntheticResult(call, why) })),
  );
  draft.turn!.batch = null;
}
