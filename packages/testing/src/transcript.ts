import type { Message } from '@tiller/core';

/**
 * What is wrong with a transcript's tool calls: each must have exactly one result, after it and
 * before the next assistant message, and every result must answer an open call.
 */
export function unansweredCalls(messages: Iterable<Message>): string[] {
  const problems: string[] = [];
  let open = new Map<string, number>();
  const close = () => {
    for (const [id, count] of open) if (count !== 1) problems.push(`tool call ${id} has ${count} results`);
  };
  for (const m of messages) {
    if (m.role === 'assistant') {
      close();
      open = new Map(m.content.flatMap((p) => (p.type === 'toolCall' ? [[p.id, 0] as const] : [])));
    } else if (m.role === 'toolResult') {
      if (!open.has(m.toolCallId)) problems.push(`the result for ${m.toolCallId} answers no open call`);
      else open.set(m.toolCallId, open.get(m.toolCallId)! + 1);
    }
  }
  close();
  return problems;
}
