// Outline a session file from its text alone, as a viewer in a browser would: no file system,
// the same reading as JsonlStore.open, labels resolved, and what was skipped or repaired.
import { isSessionText, labelsOf, readSessionText } from '@tiller/session/text';

export function outlineSessionText(text: string, name: string): string[] {
  if (!isSessionText(text)) return [`${name} is not a session file`];
  const { header, entries, warnings } = readSessionText(text, name);
  const labels = labelsOf(entries);
  return [
    `session ${header.id}: ${entries.length} entries`,
    ...entries.map((e) => `${e.id} <- ${e.parentId ?? '(root)'} ${e.kind}${labels.has(e.id) ? ` [${labels.get(e.id)}]` : ''}`),
    ...warnings.map((w) => `warning: ${w.message}`),
  ];
}
