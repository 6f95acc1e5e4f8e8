import type { Summarizer } from '@tiller/compaction';
import type { TillerModel } from '@tiller/core';

/**
 * A model as the summarizer of `WindowManager({strategy: 'summarize'})`: the compactor's prompt as
 * one user message, no tools, the reply's text as the summary. Often the agent's own model, as in pi.
 */
export function modelSummarizer(model: TillerModel): Summarizer {
  return {
    model: model.id,
    contextWindow: model.contextWindow,
    async summarize(request) {
      const signal = request.signal ?? new AbortController().signal;
      const stream = model.stream({
        messages: [{ role: 'user', content: request.prompt }],
        tools: [],
        system: request.system,
        maxOutputTokens: request.maxTokens,
        signal,
      });
      for await (const part of stream) {
        if (part.type !== 'done') continue;
        const text = part.message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
        if (part.stopReason === 'error' || text.trim() === '') {
          throw new Error(`${model.id} gave no summary (${part.message.errorMessage ?? `stop reason ${part.stopReason}`})`);
        }
        return { text, usage: part.usage, model: part.message.model ?? model.id };
      }
      throw new Error(`the stream of ${model.id} ended without a summary`);
    },
  };
}
