import { ModelError, type ModelStreamPart, type TillerModel } from '@tiller/core';

/**
 * The parts of a model's stream, each checked against the stream protocol as it comes: a model
 * written by hand in JavaScript (no types to stand guard) that sends what the protocol does not
 * have fails its call as `fatal`, naming itself and the part, instead of failing later with a bare
 * TypeError, or of handing subscribers (and, on an abort, the session) a delta that is no text.
 * What `done` carries is checked as a whole by `replyProblem`.
 */
export function streamParts(model: TillerModel, stream: unknown): AsyncIterator<ModelStreamPart> {
  const iterate = (stream as { [Symbol.asyncIterator]?: unknown } | null | undefined)?.[Symbol.asyncIterator];
  if (typeof iterate !== 'function') {
    // An async function in place of an async generator: the call fails here, so a rejection of its
    // promise would reach nobody, and Node ends the process for an unhandled one.
    if (typeof (stream as { then?: unknown } | null | undefined)?.then === 'function') Promise.resolve(stream).catch(() => {});
    throw new ModelError('fatal', `${model.id}: stream(request) returned ${describe(stream)}, not an async iterable of stream parts`);
  }
  const parts = iterate.call(stream) as AsyncIterator<unknown>;
  let count = 0;
  return {
    async next() {
      const next = await parts.next();
      if (next.done) return next;
      count++;
      const problem = partProblem(next.value);
      if (problem) throw new ModelError('fatal', `${model.id}: part ${count} ${problem}`);
      return next as IteratorResult<ModelStreamPart>;
    },
    // Closing is the stream's own: whatever it does, the caller ignores.
    return: parts.return && ((value) => parts.return!(value) as Promise<IteratorResult<ModelStreamPart>>),
  };
}

const TYPES = 'text-delta, thinking-delta, toolcall-delta, done';

/** What is wrong with one part, worded to follow "part N", or undefined when it is one the protocol has. */
function partProblem(part: unknown): string | undefined {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) return `is ${describe(part)}, not an object`;
  const fields = part as Record<string, unknown>;
  const type = fields.type as ModelStreamPart['type'];
  const field = (name: string, expected: 'a string' | 'an object', ok: boolean) => (ok ? undefined : `(${type}): ${name}: expected ${expected}, got ${describe(fields[name])}`);
  switch (type) {
    case 'text-delta':
    case 'thinking-delta':
      return field('delta', 'a string', typeof fields.delta === 'string');
    case 'toolcall-delta':
      return (
        field('toolCallId', 'a string', typeof fields.toolCallId === 'string') ??
        field('toolName', 'a string', typeof fields.toolName === 'string') ??
        field('delta', 'a string', typeof fields.delta === 'string')
      );
    case 'done':
      return field('message', 'an object', typeof fields.message === 'object' && fields.message !== null);
    default: {
      const unknown: never = type;
      return `has type ${describe(unknown)}, which is none of ${TYPES}`;
    }
  }
}

/** A value in a few words: JSON where it has some, else its kind. */
function describe(value: unknown): string {
  if (value instanceof Promise) return 'a Promise';
  if (Array.isArray(value)) return 'an array';
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // A BigInt, a cycle: its kind says enough.
  }
  // JSON has nothing for undefined, a function or a symbol.
  if (text === undefined) return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
