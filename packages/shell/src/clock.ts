/** The shell's clock as ISO-8601 text, the form every `at` takes. */
export function now(): string {
  return new Date().toISOString();
}
