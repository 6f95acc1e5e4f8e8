let lastMs = Number.NaN;
let lastText = '';

/**
 * The shell's clock as ISO-8601 text, the form every `at` takes. The text only changes once a
 * millisecond, while a turn asks for it several times a model call: it is formatted once per
 * millisecond and reused within it.
 */
export function now(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastText = new Date(ms).toISOString();
  }
  return lastText;
}
