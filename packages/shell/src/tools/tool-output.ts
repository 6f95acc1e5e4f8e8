import { ToolOutcome, type ToolResultContentPart } from '@tiller/core';
import { z } from 'zod';

/**
 * A tool's return value as result content. Whatever a tool returns, this never throws: what can
 * be said as JSON is, a few values are converted (see below), and anything else becomes an error
 * result that names the tool, so the model can read it and the turn goes on.
 *
 * - a string: its text
 * - `{ content, details?, isError? }` whose parts are text or images: kept as given; `details`
 *   must be JSON (it is stored in the session)
 * - an `Error`: an error result with its message
 * - a `Map`: its entries as a JSON array of `[key, value]` pairs; a `Set`: its values as an array
 * - `undefined`: empty text
 * - anything else JSON can say: its JSON text
 * - a function, a symbol, a BigInt, a circular object: an error result saying what it was
 */
export function toolOutcome(toolCallId: string, toolName: string, output: unknown): ToolOutcome {
  if (typeof output === 'string') return textOutcome(toolCallId, output);
  if (output === undefined) return textOutcome(toolCallId, '');
  if (output instanceof Error) return errorOutcome(toolCallId, `Tool "${toolName}" returned an error: ${output.message}`);
  if (hasContentArray(output)) return structuredOutcome(toolCallId, toolName, output);
  const json = toJson(output);
  if (json.ok) return textOutcome(toolCallId, json.text);
  return errorOutcome(toolCallId, `Tool "${toolName}" returned ${json.what}, which cannot be sent to the model. Tools return a string, JSON data or { content }.`);
}

export function errorOutcome(toolCallId: string, text: string): ToolOutcome {
  return { toolCallId, content: [{ type: 'text', text }], isError: true };
}

function textOutcome(toolCallId: string, text: string): ToolOutcome {
  return { toolCallId, content: [{ type: 'text', text }], isError: false };
}

const Structured = z.object({ content: z.array(z.unknown()), isError: z.boolean().optional(), details: z.unknown().optional() });

function hasContentArray(value: unknown): value is { content: unknown[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

function structuredOutcome(toolCallId: string, toolName: string, output: { content: unknown[] }): ToolOutcome {
  const parsed = Structured.safeParse(output);
  if (!parsed.success) return errorOutcome(toolCallId, `Tool "${toolName}" returned a malformed result:\n${z.prettifyError(parsed.error)}`);
  const parts = z.array(ToolOutcome.shape.content.element).safeParse(parsed.data.content);
  if (!parts.success) {
    return errorOutcome(
      toolCallId,
      `Tool "${toolName}" returned content that is not text ({type: 'text', text}) or images ({type: 'image', data, mimeType}):\n${z.prettifyError(parts.error)}`,
    );
  }
  const outcome: ToolOutcome = { toolCallId, content: parts.data as ToolResultContentPart[], isError: parsed.data.isError === true };
  if (parsed.data.details === undefined) return outcome;
  const details = toJson(parsed.data.details);
  if (!details.ok) return errorOutcome(toolCallId, `Tool "${toolName}" returned details holding ${details.what}, which cannot be stored.`);
  return { ...outcome, details: JSON.parse(details.text) as unknown };
}

export type Json = { ok: true; text: string } | { ok: false; what: string };

/** JSON text of a value, with Maps as entry arrays and Sets as arrays; or what made it impossible. */
export function toJson(value: unknown): Json {
  switch (typeof value) {
    case 'function':
      return { ok: false, what: 'a function' };
    case 'symbol':
      return { ok: false, what: 'a symbol' };
    case 'bigint':
      return { ok: false, what: 'a BigInt' };
    default:
      break;
  }
  try {
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (inner instanceof Map) return [...inner.entries()];
      if (inner instanceof Set) return [...inner.values()];
      if (inner instanceof Error) return { name: inner.name, message: inner.message };
      if (typeof inner === 'bigint') throw new UnsayableError('a BigInt');
      if (typeof inner === 'function') throw new UnsayableError('a function');
      return inner;
    });
    return text === undefined ? { ok: false, what: 'a value JSON cannot hold' } : { ok: true, text };
  } catch (error) {
    if (error instanceof UnsayableError) return { ok: false, what: `a value holding ${error.what}` };
    // JSON.stringify throws a TypeError for a cycle (and a getter may throw anything).
    return { ok: false, what: /circular/i.test(String((error as Error)?.message)) ? 'a circular object' : 'a value JSON cannot hold' };
  }
}

class UnsayableError extends Error {
  constructor(readonly what: string) {
    super(what);
  }
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
