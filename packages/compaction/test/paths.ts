import type { AssistantContentPart, Entry, Message, Usage } from '@tiller/core';

/** Builders for the entry paths unit tests compact. */

export type Draft = Entry extends infer E ? (E extends Entry ? Omit<E, 'id' | 'parentId' | 'at'> & { id?: string } : never) : never;

const AT = '2026-01-01T00:00:00.000Z';

/** Chains drafts into a root-to-leaf path; ids default to e1, e2, ... */
export function pathOf(...drafts: Draft[]): Entry[] {
  return extend([], ...drafts);
}

/** Appends drafts to an existing path, continuing its chain. */
export function extend(path: readonly Entry[], ...drafts: Draft[]): Entry[] {
  const out = path.slice();
  for (const draft of drafts) {
    const id = draft.id ?? `e${out.length + 1}`;
    out.push({ ...draft, id, parentId: out.at(-1)?.id ?? null, at: AT } as Entry);
  }
  return out;
}

export const message = (m: Message, id?: string): Draft => ({ kind: 'message', message: m, ...(id ? { id } : {}) });

export const user = (text: string, id?: string): Draft => message({ role: 'user', content: text }, id);

export function usage(total: number): Usage {
  return { input: total - 100, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: total };
}

export const assistant = (
  parts: string | AssistantContentPart[],
  extra: { usage?: Usage; stopReason?: 'stop' | 'toolUse' | 'aborted' | 'error'; id?: string } = {},
): Draft =>
  message(
    {
      role: 'assistant',
      content: typeof parts === 'string' ? [{ type: 'text', text: parts }] : parts,
      ...(extra.usage ? { usage: extra.usage } : {}),
      ...(extra.stopReason ? { stopReason: extra.stopReason } : {}),
    },
    extra.id,
  );

export const call = (id: string, name: string, args: Record<string, unknown>): AssistantContentPart => ({
  type: 'toolCall',
  id,
  name,
  args,
});

export const result = (toolCallId: string, text: string, toolName = 'read', id?: string): Draft =>
  message({ role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError: false }, id);

export const label = (text: string): Draft => ({ kind: 'custom', customType: 'label', data: { label: text } });

/** Text of exactly `tokens` estimated tokens (4 ASCII characters each). */
export const words = (tokens: number, fill = 'a'): string => fill.repeat(tokens * 4);

/** A turn: the user asks, the assistant calls `read` once per result size, then answers. */
export function turn(n: number, resultTokens: number[], answerTokens = 10): Draft[] {
  const drafts: Draft[] = [user(`request ${n} ${words(5)}`, `u${n}`)];
  resultTokens.forEach((size, k) => {
    drafts.push(assistant([call(`c${n}-${k}`, 'read', { path: `src/f${n}-${k}.ts` })], { id: `a${n}-${k}` }));
    drafts.push(result(`c${n}-${k}`, words(size), 'read', `r${n}-${k}`));
  });
  drafts.push(assistant(words(answerTokens), { id: `a${n}-end` }));
  return drafts;
}

/** A message the host injects (a custom entry the model sees), such as a note appended while tools run. */
export const hostNote = (text: string, id?: string): Draft => ({
  kind: 'custom',
  customType: 'host-note',
  data: {},
  message: { role: 'user', content: text },
  ...(id ? { id } : {}),
});

/**
 * True when a cut at `index` would fall inside a tool batch: some tool result at or after `index`
 * answers a call made before it, so keeping from `index` keeps the result and drops its call.
 */
export function cutsInsideBatch(path: readonly Entry[], index: number): boolean {
  const callAt = new Map<string, number>();
  path.forEach((entry, i) => {
    if (entry.kind === 'message' && entry.message.role === 'assistant') {
      for (const part of entry.message.content) if (part.type === 'toolCall') callAt.set(part.id, i);
    }
  });
  return path.slice(index).some((entry) => {
    if (entry.kind !== 'message' || entry.message.role !== 'toolResult') return false;
    const at = callAt.get(entry.message.toolCallId);
    return at !== undefined && at < index;
  });
}
