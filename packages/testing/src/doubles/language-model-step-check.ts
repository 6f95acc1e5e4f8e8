import { z } from 'zod';
import { describeValue } from '../describe-value.js';
import { nonnegativeInt } from '../check-options.js';
import type { LanguageModelFault, LanguageModelReply } from './scripted-language-model.js';

/** The faults `scriptedLanguageModel` plays by name (its `LanguageModelFault`). */
export const LANGUAGE_MODEL_FAULTS = ['rate_limited', 'server_error', 'overflow', 'fatal', 'cut_stream'] as const satisfies readonly LanguageModelFault[];

const LanguageModelReplySchema = z.strictObject({
  reasoning: z.string().optional(),
  text: z.string().optional(),
  toolCalls: z
    .array(z.strictObject({ id: z.string().min(1).optional(), name: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
  finishReason: z.enum(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other']).optional(),
  usage: z.strictObject({ input: nonnegativeInt, output: nonnegativeInt, cacheRead: nonnegativeInt.optional() }).optional(),
}) satisfies z.ZodType<LanguageModelReply>;

/**
 * Checks the script of `scriptedLanguageModel` when the model is made. Every field of a reply is
 * optional, so a misspelt one would play an empty reply, and junk would fail the first call that
 * reached it as the provider's error: either way far from the line that wrote it.
 */
export function checkLanguageModelScript(script: unknown): void {
  if (!Array.isArray(script)) throw new TypeError(`scriptedLanguageModel: the script is a list of steps, got ${describeValue(script)}`);
  for (const [index, step] of script.entries()) {
    const problem = problemOf(step);
    if (problem) throw new TypeError(`scriptedLanguageModel: invalid script[${index}]:${problem.startsWith('\n') ? '' : ' '}${problem}`);
  }
}

function problemOf(step: unknown): string | null {
  if (typeof step === 'string') {
    return (LANGUAGE_MODEL_FAULTS as readonly string[]).includes(step) ? null : `unknown fault ${JSON.stringify(step)}; the faults are ${LANGUAGE_MODEL_FAULTS.join(', ')}`;
  }
  const prototype = typeof step === 'object' && step !== null ? (Object.getPrototypeOf(step) as object | null) : undefined;
  if (prototype !== Object.prototype && prototype !== null) return `expected a reply or a fault by name, got ${describeValue(step)}`;
  const parsed = LanguageModelReplySchema.safeParse(step);
  return parsed.success ? null : `\n${z.prettifyError(parsed.error)}`;
}
