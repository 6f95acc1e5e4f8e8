import type { ToolOutcome, ToolResultContentPart } from '@tiller/core';

/** A tool's return value as result content: text as is, structured content kept, anything else as JSON. */
export function toolOutcome(toolCallId: string, output: unknown): ToolOutcome {
  if (typeof output === 'string') return { toolCallId, content: [{ type: 'text', text: output }], isError: false };
  if (isStructured(output)) {
    return {
      toolCallId,
      content: output.content,
      isError: output.isError === true,
      ...(output.details === undefined ? {} : { details: output.details }),
    };
  }
  const text = output === undefined ? '' : JSON.stringify(output) ?? String(output);
  return { toolCallId, content: [{ type: 'text', text }], isError: false };
}

export function errorOutcome(toolCallId: string, text: string): ToolOutcome {
  return { toolCallId, content: [{ type: 'text', text }], isError: true };
}

function isStructured(value: unknown): value is { content: ToolResultContentPart[]; details?: unknown; isError?: boolean } {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { content?: unknown }).content)) return false;
  return (value as { content: unknown[] }).content.every(
    (part) => typeof part === 'object' && part !== null && ((part as { type?: unknown }).type === 'text' || (part as { type?: unknown }).type === 'image'),
  );
}

/**
 * Keeps the text of an outcome within `maxChars`, cutting at the limit and saying so, so the model
 * knows it saw only part of the output.
 */
export function truncateOutcome(outcome: ToolOutcome, maxChars: number): ToolOutcome {
  const total = outcome.content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0);
  if (total <= maxChars) return outcome;
  let budget = maxChars;
  const content: ToolResultContentPart[] = [];
  for (const part of outcome.content) {
    if (part.type !== 'text') {
      content.push(part);
      continue;
    }
    if (budget <= 0) continue;
    content.push({ type: 'text', text: part.text.slice(0, budget) });
    budget -= part.text.length;
  }
  content.push({ type: 'text', text: `\n[Output truncated: the first ${maxChars} of ${total} characters are shown.]` });
  return { ...outcome, content };
}
