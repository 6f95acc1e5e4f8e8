import type { AssistantMessage } from '@tiller/core';

/**
 * What the running model call has streamed so far, so an abort can hand it to the core: the text
 * and thinking the user already saw stay in the transcript. Tool calls that streamed in part are
 * left out (they never ran).
 */
export interface PartialReply {
  /** A new attempt of call `callId` starts: what an earlier attempt streamed is dropped. */
  begin(callId: string, model: string): void;
  add(kind: 'text' | 'thinking', delta: string): void;
  /** The call ended (answered or failed): nothing is partial any more. */
  end(callId: string): void;
  /** The reply so far of call `callId`, if it is the one streaming and streamed anything. */
  of(callId: string): AssistantMessage | undefined;
}

export function createPartialReply(): PartialReply {
  let current: { callId: string; model: string; text: string; thinking: string } | null = null;
  return {
    begin(callId, model) {
      current = { callId, model, text: '', thinking: '' };
    },
    add(kind, delta) {
      if (current) current[kind] += delta;
    },
    end(callId) {
      if (current?.callId === callId) current = null;
    },
    of(callId) {
      if (current?.callId !== callId || (current.text === '' && current.thinking === '')) return undefined;
      const content: AssistantMessage['content'] = [];
      if (current.thinking !== '') content.push({ type: 'thinking', thinking: current.thinking });
      if (current.text !== '') content.push({ type: 'text', text: current.text });
      return { role: 'assistant', content, model: current.model, stopReason: 'aborted' };
    },
  };
}
