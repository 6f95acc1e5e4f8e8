import type { ToolCallPart, ToolOutcome } from '@tiller/core';

/**
 * The rule for a call that a replay finds started and never finished: an idempotent tool runs
 * again (null), any other gets this error result and never runs twice, since it may already
 * have had its effect.
 */
export function interruptedOutcome(call: ToolCallPart, idempotent: boolean): ToolOutcome | null {
  if (idempotent) return null;
  return {
    toolCallId: call.id,
    content: [
      {
        type: 'text',
        text: `The call to "${call.name}" was interrupted: the process stopped while it ran. It was not run again because it may already have had its effect; check before calling it again.`,
      },
    ],
    isError: true,
  };
}
