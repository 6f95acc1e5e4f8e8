import type { AssistantMessage } from '@tiller/core';

/**
 * Where a model call puts what it streams, as it streams, so whoever holds the turn can keep the
 * reply so far when the turn is aborted (the core takes it as the `abort` input's `partial`).
 */
export interface PartialReplySink {
  /** Attempt of call `callId` to `model` starts: what an earlier attempt streamed is void. */
  begin(callId: string, model: string): void;
  /** A text or thinking delta of the running attempt. */
  add(kind: 'text' | 'thinking', delta: string): void;
  /** Call `callId` ended (answered or failed): nothing of it is partial any more. */
  end(callId: string): void;
}

/**
 * What the running model call has streamed so far, so an abort can hand it to the core: the text
 * and thinking the user already saw stay in the transcript. Tool calls that streamed in part are
 * left out (they never ran).
 */
export interface PartialReply extends PartialReplySink {
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
