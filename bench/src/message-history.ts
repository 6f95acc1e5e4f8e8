import { scaleSession, ScaleSessionError, type PiLine } from './scale-session.js';

/**
 * The message entries of a pi session path (root first), each re-parented onto the message kept
 * before it: what a conversation holds once model and thinking-level changes, labels and the like
 * are left out. A path with a compaction is refused: its messages before the cut are not what a
 * model would be sent.
 */
export function messagesOnly(path: readonly PiLine[]): PiLine[] {
  const out: PiLine[] = [];
  for (const entry of path) {
    if (entry.type === 'compaction') throw new ScaleSessionError(`entry ${entry.id}: a compaction cannot be reduced to its messages`);
    if (entry.type !== 'message') continue;
    out.push({ ...entry, parentId: out.at(-1)?.id ?? null });
  }
  return out;
}

/**
 * A history of exactly `count` messages for an agent: the messages of `path` repeated (as
 * `scaleSession` repeats a session, with fresh ids), so every loop can be given the same
 * conversation at any length, an empty one included. Tool calls that get no result within the
 * history (a turn the user interrupted, or one cut at `count`) are left out of their assistant
 * message: the AI SDK refuses a prompt with an unanswered call, and no loop should be handed one.
 */
export function messageHistory(path: readonly PiLine[], count: number): PiLine[] {
  return answeredCallsOnly(scaleSession(messagesOnly(path), count, 'm'));
}

interface PiContentPart {
  type: string;
  id?: string;
}

/**
 * `history` with every assistant tool call that its tool results do not answer taken out. A
 * call's results are the tool results right after its assistant message; ids are matched there
 * only, since a repeated session repeats its call ids.
 */
export function answeredCallsOnly(history: readonly PiLine[]): PiLine[] {
  return history.map((entry, i) => {
    const message = entry.message as { role?: string; content?: PiContentPart[] } | undefined;
    if (message?.role !== 'assistant' || !Array.isArray(message.content)) return entry;
    const answered = new Set<string>();
    for (let j = i + 1; j < history.length; j++) {
      const result = history[j]!.message as { role?: string; toolCallId?: string } | undefined;
      if (result?.role !== 'toolResult') break;
      if (result.toolCallId) answered.add(result.toolCallId);
    }
    const content = message.content.filter((part) => part.type !== 'toolCall' || answered.has(part.id ?? ''));
    return content.length === message.content.length ? entry : { ...entry, message: { ...message, content } };
  });
}
