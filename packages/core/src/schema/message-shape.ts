import { isObject, nonEmptyString, optionalString, recordProblem, string, usageProblem, type Fields, type Problem } from './shape-reads.js';

/** The first field of a message that is not what the schema says, and why; `field` is relative to the message (`content[2].text`). */
export interface MessageShapeProblem {
  field: string;
  reason: string;
}

/**
 * The zod schema `Message` (with `Usage`), checked by plain property reads: it returns undefined
 * exactly when `Message.safeParse(message)` succeeds (keys the schema does not name are fine: zod
 * strips them), and otherwise the first bad field in the schema's order, and why. It runs on every
 * line of a session file and on every message a token estimate counts, where zod's parse (which
 * copies the message and gathers every issue) would cost more than reading the line.
 * `message-shape.test.ts` holds the two to agreement, both ways.
 */
export function messageShapeProblem(message: unknown): MessageShapeProblem | undefined {
  if (!isObject(message)) return { field: '(the message)', reason: 'expected an object' };
  switch (message.role) {
    case 'user':
      if (typeof message.content === 'string') return undefined;
      if (!Array.isArray(message.content)) return { field: 'content', reason: 'expected a string or an array of parts' };
      return partsProblem(message.content, userPartProblem);
    case 'assistant':
      return (
        partsProblem(message.content, assistantPartProblem) ??
        (message.usage === undefined ? undefined : usageProblem(message.usage, 'usage')) ??
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
      return nonEmptyString(part, 'id', at) ?? nonEmptyString(part, 'name', at) ?? recordProblem(part.args, `${at}.args`) ?? optionalString(part, 'unparsedArgs', at);
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

function isStopReason(value: unknown): boolean {
  return value === 'stop' || value === 'length' || value === 'toolUse' || value === 'error' || value === 'aborted';
}
