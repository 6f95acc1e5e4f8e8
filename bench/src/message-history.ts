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
 * `scaleSession` repeats a session, with fresh ids), so pi and Tiller can be given the same
 * conversation at any length, an empty one included.
 */
export function messageHistory(path: readonly PiLine[], count: number): PiLine[] {
  return scaleSession(messagesOnly(path), count, 'm');
}
