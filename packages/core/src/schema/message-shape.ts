/** The first field of a message that is not what the schema says, and why; `field` is relative to the message (`content[2].text`). */
export interface MessageShapeProblem {
  field: string;
  reason: string;
}

type Problem = MessageShapeProblem | undefined;
type Fields = Record<string, unknown>;

/**
 * The zod schema `Message` (with `Usage`), checked by plain property reads: it returns undefined
 * exactly when `Message.safeParse(message)` succeeds (keys the schema does not name are fine: zod
 * strips them), and otherwise the first bad field in the schema's order, and why. It runs on every
 * line of a session file and on every message a token estimate counts, where zod's parse (which
 * copies the message and gathers every issue) would cost more than reading the line.
 * `message-shape.test.ts` holds the two to agreement, both ways.
 */
export function messageShapeProblem(message: unknown): Problem {
  if (!isObject(message)) return { field: '(the message)', reason: 'expected an object' };
  switch (message.role) {
    case 'user':
      if (typeof message.content === 'string') return undefined;
      if (!Array.isArray(message.content)) return { field: 'content', reason: 'expected a string or an array of parts' };
      return partsProblem(message.content, userPartProblem);
    case 'assistant':
      return (
        partsProblem(message.content, assistantPartProblem) ??
        (message.usage === undefined ? undefined : usageProblem(message.usage)) ??
        (message.stopReason === undefined || isStopReason(message.stopReason) ? undefined : { field: 'stopReason', reason: 'expected stop, length, toolUse, error or aborted' }) ??
        optionalString(message, 'model', '') ??
        optionalString(message, 'errorMessage', '')
      );
    case 'toolResult':
      // `details` is anything the host keeps; the schema does not look inside.
      return (
        nonEmptyString(message, 'toolCallId', '') ??
        string(message, 'toolName', '') ??
        partsProblem(message.content, toolResultPartProblem) ??
        (typeof message.isError === 'boolean' ? undefined : { field: 'isError', reason: 'expected true or false' })
      );
    default:
      return { field: 'role', reason: 'expected user, assistant or toolResult' };
  }
}

/** A part's problem, `at` being its place (`content[2]`). */
type PartCheck = (part: Fields, at: string) => Problem;

function partsProblem(content: unknown, check: PartCheck): Problem {
  if (!Array.isArray(content)) return { field: 'content', reason: 'expected an array of parts' };
  for (let i = 0; i < content.length; i++) {
    const part: unknown = content[i];
    const at = `content[${i}]`;
    if (!isObject(part)) return { field: at, reason: 'expected a part (an object with a type)' };
    const problem = check(part, at);
    if (problem) return problem;
  }
  return undefined;
}

function userPartProblem(part: Fields, at: string): Problem {
  switch (part.type) {
    case 'text':
      return string(part, 'text', at);
    case 'image':
      return mediaProblem(part, at);
    case 'file':
      return mediaProblem(part, at) ?? optionalString(part, 'name', at);
    default:
      return { field: `${at}.type`, reason: 'expected text, image, file' };
  }
}

function assistantPartProblem(part: Fields, at: string): Problem {
  switch (part.type) {
    case 'text':
      return string(part, 'text', at);
    case 'thinking':
      return (
        string(part, 'thinking', at) ??
        optionalString(part, 'signature', at) ??
        (part.redacted === undefined || typeof part.redacted === 'boolean' ? undefined : { field: `${at}.redacted`, reason: 'expected true or false' })
      );
    case 'toolCall':
      return nonEmptyString(part, 'id', at) ?? nonEmptyString(part, 'name', at) ?? argsProblem(part.args, `${at}.args`) ?? optionalString(part, 'unparsedArgs', at);
    default:
      return { field: `${at}.type`, reason: 'expected text, thinking, toolCall' };
  }
}

function toolResultPartProblem(part: Fields, at: string): Problem {
  switch (part.type) {
    case 'text':
      return string(part, 'text', at);
    case 'image':
      return mediaProblem(part, at);
    default:
      return { field: `${at}.type`, reason: 'expected text, image' };
  }
}

function mediaProblem(part: Fields, at: string): Problem {
  return string(part, 'data', at) ?? nonEmptyString(part, 'mimeType', at);
}

/**
 * Tool call arguments are a record: a plain object (not an array, a Date, a Map or a class's
 * instance) with string keys only. A JSON line always gives one or nothing; the rest is for
 * messages a host or a compactor built in JavaScript.
 */
function argsProblem(args: unknown, field: string): Problem {
  if (!isObject(args)) return { field, reason: 'expected an object' };
  if (!isPlainObject(args)) return { field, reason: 'expected a plain object (not a Date, a Map or an instance of a class)' };
  // zod refuses an enumerable symbol key (its keys must be strings); a JSON object never has one.
  for (const key of Object.getOwnPropertySymbols(args)) {
    if (Object.prototype.propertyIsEnumerable.call(args, key)) return { field, reason: 'expected string keys only (it has a symbol key)' };
  }
  return undefined;
}

const TOKEN_COUNTS = ['input', 'output', 'cacheRead', 'cacheWrite', 'totalTokens'] as const;
const COSTS = ['input', 'output', 'cacheRead', 'cacheWrite', 'total'] as const;

function usageProblem(usage: unknown): Problem {
  if (!isObject(usage)) return { field: 'usage', reason: 'expected an object' };
  for (const key of TOKEN_COUNTS) {
    const n = usage[key];
    if (!Number.isSafeInteger(n) || (n as number) < 0) return { field: `usage.${key}`, reason: 'expected a whole number of tokens, 0 or more' };
  }
  const cost = usage.cost;
  if (cost === undefined) return undefined;
  if (!isObject(cost)) return { field: 'usage.cost', reason: 'expected an object' };
  for (const key of COSTS) {
    const n = cost[key];
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return { field: `usage.cost.${key}`, reason: 'expected a finite number, 0 or more' };
  }
  return undefined;
}

function isStopReason(value: unknown): boolean {
  return value === 'stop' || value === 'length' || value === 'toolUse' || value === 'error' || value === 'aborted';
}

/** `at` is the place of the object holding the field (`content[2]`), or '' for the message itself. */
function fieldAt(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

function string(o: Fields, key: string, at: string): Problem {
  return typeof o[key] === 'string' ? undefined : { field: fieldAt(at, key), reason: 'expected a string' };
}

function nonEmptyString(o: Fields, key: string, at: string): Problem {
  const value = o[key];
  return typeof value === 'string' && value !== '' ? undefined : { field: fieldAt(at, key), reason: 'expected a non-empty string' };
}

function optionalString(o: Fields, key: string, at: string): Problem {
  const value = o[key];
  return value === undefined || typeof value === 'string' ? undefined : { field: fieldAt(at, key), reason: 'expected a string when present' };
}

/** What zod takes for an object: anything of type object but null and arrays (a Date too). */
function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What zod takes for a record (its `isPlainObject`): an object whose constructor, if any is a function, has a prototype of its own with `isPrototypeOf` (Object's does; a class's does not). */
function isPlainObject(value: Fields): boolean {
  const ctor = value.constructor;
  if (typeof ctor !== 'function') return true;
  const prototype: unknown = ctor.prototype;
  return isObject(prototype) && Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}
