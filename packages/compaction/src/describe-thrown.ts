/** A thrown value as text: an Error's message, an object's JSON; never throws itself (a getter that throws, a cycle). */
export function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return typeof error === 'object' && error !== null ? (JSON.stringify(error) ?? String(error)) : String(error);
  } catch {
    return `a thrown ${typeof error} that cannot be described`;
  }
}
