import { StopReason, Usage } from '@tiller/core';
import { z } from 'zod';
import { nonnegativeInt, positiveInt } from '../check-options.js';

/** The kinds of `ModelError`, which core declares as a type only. */
const ModelErrorKind = z.enum(['transient', 'overflow', 'fatal']);

/** A wait in milliseconds; `Infinity` (which `z.number()` refuses) holds until the call is aborted. */
const wait = z.union([z.number().nonnegative(), z.custom<number>((value) => value === Infinity)], { error: 'expected a wait of 0 ms or more, or Infinity' });

const ScriptedReplySchema = z.strictObject({
  thinking: z.string().optional(),
  text: z.string().optional(),
  toolCalls: z
    .array(z.strictObject({ id: z.string().min(1).optional(), name: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
  usage: Usage.partial().optional(),
  stopReason: StopReason.optional(),
  delayMs: wait.optional(),
  partDelayMs: wait.optional(),
  // A chunk of 0 characters never moves through the text.
  chunkSize: positiveInt.optional(),
});

const ScriptedFailureSchema = z.strictObject({
  error: ModelErrorKind,
  message: z.string().optional(),
  retryAfterMs: nonnegativeInt.optional(),
  delayMs: wait.optional(),
});

/**
 * What is wrong with one step of a script (`script[index]`), or null. A step is a fault by name, a
 * failure (`{error}`), a reply, or (unless `given` is set: what a function step returned) a function.
 */
export function stepProblem(step: unknown, faults: readonly string[], given = false): string | null {
  if (typeof step === 'function' && !given) return null;
  if (typeof step === 'string') return faults.includes(step) ? null : `unknown fault ${JSON.stringify(step)}; the faults are ${faults.join(', ')}`;
  const expected = given ? 'a reply, a failure {error} or a fault by name' : 'a reply, a failure {error}, a fault by name or a function';
  if (typeof step !== 'object' || step === null || Array.isArray(step)) return `expected ${expected}, got ${describe(step)}`;
  // Every field of a reply is optional, so any object would pass for an empty one: a Promise (an
  // async function step), a Date, a Map. A step is written as a plain object.
  const prototype = Object.getPrototypeOf(step) as object | null;
  if (prototype !== Object.prototype && prototype !== null) {
    if (step instanceof Promise) return `expected ${expected}, got a Promise${given ? " (an async function; a step's function answers synchronously)" : ''}`;
    const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
    return `expected ${expected}, got ${typeof name === 'string' && name !== '' ? `a ${name}` : 'an object of a class'}`;
  }
  const parsed = ('error' in step ? ScriptedFailureSchema : ScriptedReplySchema).safeParse(step);
  return parsed.success ? null : `\n${z.prettifyError(parsed.error)}`;
}

/** The error for a bad `script[index]`: `what` says where it came from when that was not the script itself. */
export function invalidStep(index: number, problem: string, what = ''): TypeError {
  return new TypeError(`scriptedModel: invalid script[${index}]${what}:${problem.startsWith('\n') ? '' : ' '}${problem}`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'function') return 'a function';
  return value === null || typeof value !== 'object' ? String(JSON.stringify(value) ?? value) : typeof value;
}
