import type { Summarizer } from '@tiller/compaction';
import type { TillerModel } from '@tiller/core';
import { z } from 'zod';
import { AgentOptionsError } from '../errors/agent-options-error.js';

const Model = z.object({
  id: z.string().min(1, 'expected the model id'),
  stream: z.custom<TillerModel['stream']>((value) => typeof value === 'function', { message: 'expected stream(request)' }),
  contextWindow: z.number().int().positive().optional(),
});

/**
 * A model as the summarizer of `WindowManager({strategy: 'summarize'})`: the compactor's prompt as
 * one user message, no tools, the reply's text as the summary. Often the agent's own model, as in pi.
 */
export function modelSummarizer(model: TillerModel): Summarizer {
  const checked = Model.safeParse(model);
  if (!checked.success) {
    throw new AgentOptionsError(`modelSummarizer: expected a Tiller model (an object with an id and stream(request)):\n${z.prettifyError(checked.error)}`);
  }
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
