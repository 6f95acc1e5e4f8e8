type ShapeProblem = { field: string; reason: string } | undefined;

/**
 * A cheap structural check of a parsed line: the fields every reader of an entry relies on, by
 * kind, and for a message each part of its content. Full schema validation (zod) runs in strict
 * mode; this runs on every line of every open, so it reads only those fields, no deeper. Returns
 * the first bad field and why, or undefined.
 */
export function checkEntryShape(value: unknown): ShapeProblem {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { field: '(line)', reason: 'not a JSON object' };
  const e = value as Record<string, unknown>;
  if (typeof e.id !== 'string' || e.id === '') return { field: 'id', reason: 'expected a non-empty string' };
  if (e.parentId !== null && (typeof e.parentId !== 'string' || e.parentId === '')) {
    return { field: 'parentId', reason: 'expected a non-empty string or null' };
  }
  if (typeof e.at !== 'string') return { field: 'at', reason: 'expected a string' };
  switch (e.kind) {
    case 'message':
      return checkMessage(e.message);
    case 'compaction':
      if (typeof e.summary !== 'string') return { field: 'summary', reason: 'expected a string' };
      if (typeof e.firstKeptEntryId !== 'string') return { field: 'firstKeptEntryId', reason: 'expected a string' };
      return undefined;
    case 'branch_summary':
      if (typeof e.summary !== 'string') return { field: 'summary', reason: 'expected a string' };
      if (typeof e.fromId !== 'string') return { field: 'fromId', reason: 'expected a string' };
      return undefined;
    case 'custom':
      if (typeof e.customType !== 'string' || e.customType === '') return { field: 'customType', reason: 'expected a non-empty string' };
      return e.message === undefined ? undefined : checkMessage(e.message);
    default:
      return { field: 'kind', reason: 'expected message, compaction, branch_summary or custom' };
  }
}

/**
 * A message's role and its content, part by part: every reader of the context (the token estimate,
 * the providers' converters) relies on each part's type and its text, so a part without them
 * is a corrupt line, not a crash when the session is handed to an agent.
 */
function checkMessage(message: unknown): ShapeProblem {
  if (typeof message !== 'object' || message === null) return { field: 'message', reason: 'expected an object' };
  const m = message as Record<string, unknown>;
  switch (m.role) {
    case 'user':
      return typeof m.content === 'string' ? undefined : checkParts(m.content, USER_PARTS);
    case 'assistant':
      return checkParts(m.content, ASSISTANT_PARTS);
    case 'toolResult':
      if (typeof m.toolCallId !== 'string' || m.toolCallId === '') return { field: 'message.toolCallId', reason: 'expected a non-empty string' };
      return checkParts(m.content, TOOL_RESULT_PARTS);
    default:
      return { field: 'message.role', reason: 'expected user, assistant or toolResult' };
  }
}

/** For each part type a role allows, the string fields it must have. */
type PartFields = Readonly<Record<string, readonly string[]>>;
const TEXT = ['text'];
const MEDIA = ['data', 'mimeType'];
const USER_PARTS: PartFields = { text: TEXT, image: MEDIA, file: MEDIA };
const ASSISTANT_PARTS: PartFields = { text: TEXT, thinking: ['thinking'], toolCall: ['id', 'name'] };
const TOOL_RESULT_PARTS: PartFields = { text: TEXT, image: MEDIA };

function checkParts(content: unknown, allowed: PartFields): ShapeProblem {
  if (!Array.isArray(content)) return { field: 'message.content', reason: 'expected an array of parts' };
  for (let i = 0; i < content.length; i++) {
    const part = content[i] as Record<string, unknown> | null;
    const where = `message.content[${i}]`;
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
