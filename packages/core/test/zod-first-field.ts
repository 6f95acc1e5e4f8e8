/**
 * zod's first issue as a field, the way the shape checks (`messageShapeProblem`,
 * `entryShapeProblem`) name it: `content[1].id`, `details.readFiles[0]`, or `root` for the value
 * itself. The property tests compare the two with it.
 */
export function zodFirstField(issues: readonly unknown[], root: string): string {
  const path: PropertyKey[] = [];
  let issue = issues[0] as { code: string; path: PropertyKey[]; errors?: { code: string; path: PropertyKey[] }[][] };
  for (;;) {
    path.push(...issue.path);
    // A union (a user message's string-or-parts content) holds each option's issues: follow the
    // option that got past its type check, the one the content was meant for.
    const taken = issue.code === 'invalid_union' ? issue.errors?.find((option) => option[0]!.code !== 'invalid_type' || option[0]!.path.length > 0) : undefined;
    if (!taken) break;
    issue = taken[0] as typeof issue;
  }
  // A symbol key of a record (tool call arguments, an entry's meta) is named by the record that holds it.
  const named = path.slice(0, path.findIndex((key) => typeof key === 'symbol') >>> 0);
  if (named.length === 0) return root;
  return named.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('');
}
