import type { AssistantMessage, ToolCallPart } from '../../schema/message.js';
import type { TurnEventOf } from '../events.js';
import type { ProgressEvent } from '../effects.js';
import { noteIgnored } from './note-ignored.js';
import { appendMessages } from './append-entries.js';
import type { WorkingContext } from './working-context.js';

export function toolCallsOf(message: AssistantMessage): ToolCallPart[] {
  return message.content.filter((p): p is ToolCallPart => p.type === 'toolCall');
}

/**
 * A reply whose tool calls repeat an id would run a call twice and give the transcript two
 * results for one id, which providers refuse on every later request: the first call with an id
 * is kept, the later ones are dropped (and noted) before anything runs.
 */
function withoutRepeatedCalls(message: AssistantMessage): { message: AssistantMessage; repeated: string[] } {
  const seen = new Set<string>();
  const repeated: string[] = [];
  const content = message.content.filter((part) => {
    if (part.type !== 'toolCall') return true;
    if (!seen.has(part.id)) {
      seen.add(part.id);
      return true;
    }
    repeated.push(part.id);
    return false;
  });
  return repeated.length === 0 ? { message, repeated } : { message: { ...message, content }, repeated };
}

function countOf(ids: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const id of ids) counts[id] = (counts[id] ?? 0) + 1;
  return counts;
}

/**
 * Appends the model's reply. Its tool calls become the open batch: whatever happens next, each
 * gets exactly one result before the model is called again.
 */
export function recordReply(work: WorkingContext, event: TurnEventOf<'llm.done'>, emit: (event: ProgressEvent) => void): ToolCallPart[] {
  const turn = work.turn!;
  const { message: reply, repeated } = withoutRepeatedCalls(event.message);
  for (const id of repeated) {
    const note = { eventType: 'llm.done', reason: `the reply repeats tool call id "${id}": only its first call is kept`, at: event.at };
    noteIgnored(work, note);
    emit({ type: 'event.ignored', note });
  }
  const message: AssistantMessage = {
    ...reply,
    stopReason: event.stopReason,
    ...(event.usage ? { usage: event.usage } : {}),
  };
  appendMessages(work, event.at, [message]);
  turn.overflowRetries = 0;
  turn.overflowCompaction = null;
  turn.overflowCompactionWhy = undefined;
  const calls = toolCallsOf(message);
  turn.batch = calls.length > 0 ? { calls, decisions: [], ...(repeated.length > 0 ? { repeats: countOf(repeated) } : {}) } : null;
  return calls;
}

/**
 * Keeps what the model had streamed of an aborted reply: its text and thinking, marked
 * `aborted`. Nothing is appended when it streamed none.
 */
export function keepPartialReply(work: WorkingContext, partial: AssistantMessage, at: string): void {
  const content = partial.content.filter((p) => (p.type === 'text' && p.text !== '') || (p.type === 'thinking' && p.thinking !== ''));
  if (content.length === 0) return;
  const { usage: _usage, ...rest } = partial;
  appendMessages(work, at, [{ ...rest, content, stopReason: 'aborted' }]);
}
