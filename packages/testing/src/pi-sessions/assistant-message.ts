import { token, words } from './generated-text.js';
import { appendMessage, type SessionState } from './session-state.js';
import type { ToolCall } from './tool-round.js';
import { CJK } from './vocabulary.js';

/** What the assistant does in one message. */
export type Reply = { kind: 'calls'; calls: ToolCall[] } | { kind: 'answer' } | { kind: 'aborted' } | { kind: 'failed' };

/**
 * An assistant message of the current model: often thinking first (signed, unless the reply was
 * aborted), then tool calls, an answer, or nothing but the stop reason and error of an aborted or
 * failed reply. Its usage follows the context it was sent.
 */
export function appendAssistantMessage(state: SessionState, reply: Reply): void {
  const { random } = state;
  const content: unknown[] = [];
  let chars = 0;
  const withThinking = state.thinking && reply.kind !== 'failed' && random.chance(0.7);
  if (withThinking) {
    const thinking = words(random, random.int(10, 120));
    chars += thinking.length;
    const aborted = reply.kind === 'aborted';
    // Anthropic signs thinking with an opaque token; OpenAI's responses API keeps the reasoning item.
    const thinkingSignature = aborted ? '' : state.model.provider === 'anthropic' ? token(random, 120) : JSON.stringify({ type: 'reasoning', id: `rs_${token(random, 24)}`, summary: [] });
    if (!aborted) state.counts.thinkingSignatures += 1;
    content.push({ type: 'thinking', thinking, thinkingSignature });
  }
  let stopReason: string;
  let errorMessage: string | undefined;
  switch (reply.kind) {
    case 'calls': {
      if (random.chance(0.5)) {
        const text = words(random, random.int(4, 30));
        chars += text.length;
        content.push({ type: 'text', text });
      }
      for (const call of reply.calls) {
        chars += JSON.stringify(call.arguments).length;
        content.push({ type: 'toolCall', ...call });
      }
      if (reply.calls.length > 1) state.counts.parallelCalls += 1;
      stopReason = 'toolUse';
      break;
    }
    case 'answer': {
      const text = state.rich && random.chance(0.1) ? `${words(random, 20)} ${random.pick(CJK)}` : words(random, random.int(10, 200));
      chars += text.length;
      content.push({ type: 'text', text, ...(state.model.provider === 'openai' && random.chance(0.5) ? { textSignature: `msg_${token(random, 24)}` } : {}) });
      stopReason = 'stop';
      break;
    }
    case 'aborted':
      stopReason = 'aborted';
      errorMessage = 'Request was aborted.';
      state.counts.abortedReplies += 1;
      break;
    case 'failed':
      stopReason = 'error';
      errorMessage = '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
      state.counts.failedReplies += 1;
      break;
    default: {
      const unknown: never = reply;
      throw new Error(`unknown reply ${JSON.stringify(unknown)}`);
    }
  }
  const reported = reply.kind === 'calls' || reply.kind === 'answer';
  appendMessage(
    state,
    {
      role: 'assistant',
      content,
      api: state.model.api,
      provider: state.model.provider,
      model: state.model.model,
      usage: usage(state, reported ? state.contextChars : 0, reported ? chars : 0),
      stopReason,
      ...(errorMessage === undefined ? {} : { errorMessage }),
    },
    true,
    chars,
  );
  state.counts.assistantMessages += 1;
}

/** Tokens and cost as a provider reports them: a long prompt mostly read from the cache. */
function usage(state: SessionState, inputChars: number, outputChars: number) {
  const prompt = Math.ceil(inputChars / 3.6);
  const cacheRead = prompt > 2000 ? Math.floor(prompt * 0.8) : 0;
  const input = prompt - cacheRead;
  const output = Math.ceil(outputChars / 3.8);
  const cost = { input: input * 3e-6, output: output * 15e-6, cacheRead: cacheRead * 3e-7, cacheWrite: 0, total: input * 3e-6 + output * 15e-6 + cacheRead * 3e-7 };
  // Format 1 files come from a pi that wrote no totalTokens.
  const total = state.options.format === 3 ? { totalTokens: input + output + cacheRead } : {};
  return { input, output, cacheRead, cacheWrite: 0, ...total, cost };
}
