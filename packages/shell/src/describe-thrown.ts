import { toJson } from './tools/tool-output.js';

/**
 * What was thrown (by a tool, a model, a listener, a store, a policy), as text for a message: an
 * Error's message, a string, a number or `undefined` as itself, a plain object's JSON, never
 * `[object Object]`. It never throws
 * itself, whatever the value: the message is written while something else already went wrong,
 * and a getter that throws or an object without a prototype must not turn that into a second fault.
 */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    if (typeof error !== 'object' && typeof error !== 'function') return String(error);
    const json = toJson(error);
    return json.ok ? json.text : json.what;
  } catch {
    return `a thrown ${typeof error} that cannot be described`;
  }
}
