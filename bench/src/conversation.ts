import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type { Entry, Message } from '@tiller/core';
import { createSessionLog, importPiSession, MemoryStore } from '@tiller/session';
import { messageHistory } from './message-history.js';
import { pi, type PiEntry } from './pi.js';
import type { PiLine } from './scale-session.js';
import { sourceSession } from './source-session.js';

/** One conversation of a given length, in the shapes the loops take it in. */
export interface Conversation {
  /** Tiller's session entries (`importPiSession` of the pi lines). */
  entries: Entry[];
  /** What Tiller's model is sent for those entries: the other loops' copies are made from these. */
  messages: Message[];
  /** pi-agent-core's context messages, as pi's `buildSessionContext` makes them of the same lines. */
  piMessages: AgentMessage[];
}

/**
 * The same conversation of `count` messages for every loop: the source session's messages
 * repeated (`messageHistory`), imported as Tiller entries and turned into pi's context messages.
 */
export function agentHistory(count: number, source: readonly PiLine[] = sourceSession().lines): Conversation {
  const history = messageHistory(source, count);
  const header = { type: 'session', version: 3, id: `bench-agent-${count}`, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/bench' };
  const entries = importPiSession([header, ...history].map((line) => JSON.stringify(line)).join('\n')).entries;
  const messages = createSessionLog(new MemoryStore(entries)).context();
  const piEntries = history as unknown as PiEntry[];
  const piMessages = pi.buildSessionContext(piEntries, piEntries.at(-1)?.id ?? null, new Map(piEntries.map((e) => [e.id, e]))).messages;
  if (piMessages.length !== count || entries.length !== count || messages.length !== count) {
    throw new Error(`expected ${count} messages, pi has ${piMessages.length}, Tiller ${entries.length} entries and ${messages.length} messages`);
  }
  return { entries, messages, piMessages };
}
