import type { Entry } from '@tiller/core';
import { CustomTypes } from '@tiller/session';
import { formatTokens, messageText, shorten } from './describe.js';

const UUID_HEAD = /^([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/**
 * An entry id short enough to read: a UUID keeps its first 8 characters, and what follows it
 * (`<turn id>.12` becomes `1592e6ef.12`); other ids stay as they are.
 */
export function shortId(id: string): string {
  const head = UUID_HEAD.exec(id);
  return head ? `${head[1]}${id.slice(head[0].length)}` : id;
}

/** One entry in a line: its kind (or role), and what it says. */
export function describeEntry(entry: Entry): string {
  switch (entry.kind) {
    case 'message': {
      const { message } = entry;
      const origin = (entry as { origin?: unknown }).origin;
      switch (message.role) {
        case 'user':
          return `user${typeof origin === 'string' && origin !== 'prompt' ? ` (${origin})` : ''}  ${JSON.stringify(shorten(messageText(message), 60))}`;
        case 'assistant':
          return `assistant  ${shorten(messageText(message) || `(${message.stopReason ?? 'empty'})`, 60)}`;
        case 'toolResult':
          return `toolResult ${message.toolName}${message.isError ? ' (error)' : ''}  ${shorten(messageText(message), 50)}`;
        default: {
          const unknown: never = message;
          return `message ${JSON.stringify(unknown).slice(0, 40)}`;
        }
      }
    }
    case 'compaction': {
      const strategy = entry.provenance?.strategy ?? 'compaction';
      const after = entry.tokensAfter === undefined ? '' : ` → ${formatTokens(entry.tokensAfter)}`;
      const left = entry.compactedEntryIds ? `, ${entry.compactedEntryIds.length} entries left` : '';
      return `⇣ compaction (${strategy}) ${formatTokens(entry.tokensBefore)}${after} tokens, kept from ${shortId(entry.firstKeptEntryId)}${left}`;
    }
    case 'branch_summary':
      return `branch summary (from ${shortId(entry.fromId)})  ${shorten(entry.summary, 50)}`;
    case 'custom': {
      const data = entry.data as Record<string, unknown> | undefined;
      if (entry.customType === CustomTypes.label) return `label ${shortId(String(data?.targetId))} = ${JSON.stringify(data?.label ?? null)}`;
      if (entry.customType === CustomTypes.sessionName) return `session name ${JSON.stringify(data?.name ?? null)}`;
      return `custom ${entry.customType}`;
    }
    default: {
      const unknown: never = entry;
      return `entry ${JSON.stringify(unknown).slice(0, 40)}`;
    }
  }
}
