/** The first field of a message that is not what the schema says, and why; `field` is relative to the message (`content[2].text`). */
export interface MessageShapeProblem {
  field: string;
  reason: string;
}

/**
 * A cheap structural check of a message: its role and, part by part, the fields every reader of
 * the context relies on (each part's type and its text, a tool call's id, name and args). The
 * zod schema (`Message`) is the full check; this one reads only those fields, so it can run on
 * every line of a session file and on every message an estimate counts. Returns the first bad
 * field and why, or undefined.
 */
export function messageShapeProblem(message: unknown): MessageShapeProblem | undefined {
  if (typeof message !== 'object' || message === null) return { field: '(the message)', reason: 'expected an object' };
  const m = message as Record<string, unknown>;
  switch (m.role) {
    case 'user':
      if (typeof m.content === 'string') return undefined;
      if (!Array.isArray(m.content)) return { field: 'content', reason: 'expected a string or an array of parts' };
      return partsProblem(m.content, USER_PARTS);
    case 'assistant':
      return partsProblem(m.content, ASSISTANT_PARTS);
    case 'toolResult':
      if (typeof m.toolCallId !== 'string' || m.toolCallId === '') return { field: 'toolCallId', reason: 'expected a non-empty string' };
      return partsProblem(m.content, TOOL_RESULT_PARTS);
    default:
      return { field: 'role', reason: 'expected user, assistant or toolResult' };
  }
}

/** For each part type a role allows, the string fields it must have. */
type PartFields = Readonly<Record<string, readonly string[]>>;
const TEXT = ['text'];
const MEDIA = ['data', 'mimeType'];
const USER_PARTS: PartFields = { text: TEXT, image: MEDIA, file: MEDIA };
const ASSISTANT_PARTS: PartFields = { text: TEXT, thinking: ['thinking'], toolCall: ['id', 'name'] };
const TOOL_RESULT_PARTS: PartFields = { text: TEXT, image: MEDIA };

function partsProblem(content: unknown, allowed: PartFields): MessageShapeProblem | undefined {
  if (!Array.isArray(content)) return { field: 'content', reason: 'expected an array of parts' };
  for (let i = 0; i < content.length; i++) {
    const part = content[i] as Record<string, unknown> | null;
    const where = `content[${i}]`;
    if (typeof part !== 'object' || part === null) return { field: where, reason: 'expected a part (an object with a type)' };
    const fields = typeof part.type === 'string' && Object.hasOwn(allowed, part.type) ? allowed[part.type]! : undefined;
    if (!fields) return { field: `${where}.type`, reason: `expected ${Object.keys(allowed).join(', ')}` };
    for (const field of fields) if (typeof part[field] !== 'string') return { field: `${where}.${field}`, reason: 'expected a string' };
    if (part.type === 'toolCall' && (typeof part.args !== 'object' || part.args === null || Array.isArray(part.args))) {
      return { field: `${where}.args`, reason: 'expected an object' };
    }
  }
  return undefined;
}
