/** Where in a file something went wrong: the file, its 1-based line (0: the whole file), and the field (a zod issue path). */
export interface FileLocation {
  file: string;
  line: number;
  field?: string | undefined;
}

/** `file:line, field name`, the head of every located error's message. */
export function where(location: FileLocation): string {
  // Line 0: the file as a whole (it cannot be read or created).
  const line = location.line > 0 ? `:${location.line}` : '';
  const field = location.field ? `, field ${location.field}` : '';
  return `${location.file}${line}${field}`;
}
