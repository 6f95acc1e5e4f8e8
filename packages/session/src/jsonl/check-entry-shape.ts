/**
 * A cheap structural check of a parsed line: the fields every reader of an entry relies on, by
 * kind. Full schema validation (zod) runs in strict mode; this runs on every line of every open,
 * so it touches only a few fields. Returns the first bad field and why, or undefined.
 */
export function checkEntryShape(value: unknown): { field: string; reason: string } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { field: '(line)', reason: 'not a JSON object' };
  const e = value as Record<string, unknown>;
  if (typeof e.id !== 'string' || e.id === '') return { field: 'id', reason: 'expected a non-empty string' };
  if (e.parentId !== null && (typeof e.parentId !== 'string' || e.parentId === '')) {
    return { field: 'parentId', reason: 'expected a non-empty string or null' };
  }
  if (typeof e.at !== 'string') return { field: 'at', reason: 'expected a string' };
  switch (e.kind) {
    case 'message': {
      const m = e.message as Record<string, unknown> | null | undefined;
      if (typeof m !== 'object' || m === null) return { field: 'message', reason: 'expected an object' };
      if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'toolResult') {
        return { field: 'message.role', reason: 'expected user, assistant or toolResult' };
      }
      if (typeof m.content !== 'string' && !Array.isArray(m.content)) return { field: 'message.content', reason: 'expected a string or an array' };
      return undefined;
    }
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
      return undefined;
    default:
      return { field: 'kind', reason: 'expected message, compaction, branch_summary or custom' };
  }
}
